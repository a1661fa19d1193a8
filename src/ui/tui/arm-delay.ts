/** How long a panel or picker is on screen, with no key pressed, before keys answer it. */
export const ARM_DELAY_MS = 300;

/**
 * Keys typed before a panel appeared, or while the person was still typing when it appeared, never
 * answer it: it takes keys only once it has been on screen for ARM_DELAY_MS after its first frame
 * (not after it was created: under load the first frame may come late) AND no key has come for
 * ARM_DELAY_MS. A key that comes earlier is dropped and starts the delay again, so a person typing a
 * line when the panel appears does not answer it with the rest of the line or the Enter that ends it.
 */
export class ArmDelay {
  private shownAt: number | null = null;
  /** When the last dropped key came. */
  private lastDroppedAt: number | null = null;
  private dropped = false;
  /**
   * Called once keys count. Between turns nothing else redraws, so the owner redraws then and the
   * key hint shows.
   */
  onArmed: (() => void) | null = null;

  constructor(private readonly now: () => number = Date.now) {}

  /** Called from render: the first frame starts the delay. */
  markShown(): void {
    if (this.shownAt !== null) return;
    this.shownAt = this.now();
    this.scheduleArmed();
  }

  get isArmed(): boolean {
    if (this.shownAt === null) return false;
    const since = Math.max(this.shownAt, this.lastDroppedAt ?? this.shownAt);
    return this.now() - since >= ARM_DELAY_MS;
  }

  /**
   * Whether a key arriving now counts. One that does not was typed in flight: it is dropped, and
   * the delay starts again from it.
   */
  admit(): boolean {
    if (this.isArmed) return true;
    this.drop();
    return false;
  }

  /** A key that is not for the panel (the person is typing something else): the delay starts again. */
  drop(): void {
    this.lastDroppedAt = this.now();
    this.dropped = true;
    if (this.shownAt !== null) this.scheduleArmed();
  }

  /** Some key was dropped: the person was typing when the panel appeared. */
  get typedInFlight(): boolean {
    return this.dropped;
  }

  private scheduleArmed(): void {
    const onArmed = this.onArmed;
    if (onArmed) setTimeout(onArmed, ARM_DELAY_MS + 10).unref();
  }
}
