/** How long a panel or picker is on screen before keys answer it. */
export const ARM_DELAY_MS = 300;

/**
 * Keys typed before a panel appeared never answer it: it takes keys only ARM_DELAY_MS after its
 * first frame (not after it was created: under load the first frame may come late).
 */
export class ArmDelay {
  private shownAt: number | null = null;
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
    const onArmed = this.onArmed;
    if (onArmed) setTimeout(onArmed, ARM_DELAY_MS + 10).unref();
  }

  get isArmed(): boolean {
    return this.shownAt !== null && this.now() - this.shownAt >= ARM_DELAY_MS;
  }
}
