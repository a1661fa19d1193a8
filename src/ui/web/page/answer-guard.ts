/** How long a panel is on screen and focused, with no key pressed, before keys answer it. */
export const ARM_DELAY_MS = 300;

/** Keys that only modify others: they neither answer a panel nor count as typing. */
export const MODIFIER_KEYS: ReadonlySet<string> = new Set([
  'Shift',
  'Control',
  'Alt',
  'Meta',
  'CapsLock',
  'AltGraph',
]);

/**
 * When a key or a click may answer an approval: only one made for it after it was shown and
 * focused, never typing in flight (the terminal UI's ArmDelay, for the page).
 *
 * - A click counts once the panel has been on screen for ARM_DELAY_MS.
 * - A key counts once the panel has been on screen and focused for ARM_DELAY_MS and no key came
 *   for ARM_DELAY_MS; a key that comes earlier is dropped and starts the delay again.
 * - After such dropped typing, Enter or Space on a focused choice counts only once the person moved
 *   between choices (Tab, a click): it may end what they were typing. Number keys still pick.
 */
export class AnswerGuard {
  private readonly shownAt: number;
  private focusedAt: number | null = null;
  private lastDroppedAt = Number.NEGATIVE_INFINITY;
  private dropped = false;
  private moved = false;
  /** Whether the last key counted: a click the browser makes from it (Enter, Space) counts as it did. */
  private lastKeyCounted = false;

  constructor(private readonly now: () => number = () => performance.now()) {
    this.shownAt = now();
  }

  /** Focus came into the panel from outside. */
  focusEntered(): void {
    this.focusedAt = this.now();
  }

  /** Focus moved from one element of the panel to another: a move made for the panel. */
  focusMoved(): void {
    if (this.focusedAt !== null && this.isArmed()) this.moved = true;
  }

  focusLeft(): void {
    this.focusedAt = null;
  }

  /** On screen long enough for a click. */
  clickCounts(): boolean {
    return this.now() - this.shownAt >= ARM_DELAY_MS;
  }

  /**
   * A key pressed in the panel: whether it counts. A key before the panel is armed, or one that is
   * not for the panel (`forPanel` false: letters of something the person is typing), is dropped and
   * starts the delay again.
   */
  admitKey(key: string, forPanel: boolean): boolean {
    const armed = this.isArmed();
    const counts = armed && forPanel && (!this.activates(key) || !this.dropped || this.moved);
    if (!armed || !forPanel) {
      this.lastDroppedAt = this.now();
      this.dropped = true;
    }
    this.lastKeyCounted = counts;
    return counts;
  }

  /** A click on a choice: from the pointer (`detail` > 0) or made by the browser from a key. */
  admitClick(fromPointer: boolean): boolean {
    return fromPointer ? this.clickCounts() : this.lastKeyCounted;
  }

  private isArmed(): boolean {
    if (this.focusedAt === null) return false;
    const since = Math.max(this.shownAt, this.focusedAt, this.lastDroppedAt);
    return this.now() - since >= ARM_DELAY_MS;
  }

  private activates(key: string): boolean {
    return key === 'Enter' || key === ' ';
  }
}

/**
 * Whether the person is typing in a text field outside `panel` (one that holds text): then the panel
 * must not take the focus, or their next key would answer it. An empty field (a message just sent)
 * gives the focus up; keys typed in flight are then dropped by the guard.
 */
export function isTypingElsewhere(doc: Document, panel: HTMLElement | null): boolean {
  const active = doc.activeElement;
  if (!(active instanceof HTMLElement) || (panel?.contains(active) ?? false)) return false;
  if (active instanceof HTMLTextAreaElement) return active.value !== '';
  if (active instanceof HTMLInputElement) {
    return !['button', 'checkbox', 'radio', 'submit', 'reset'].includes(active.type) && active.value !== '';
  }
  return active.isContentEditable && (active.textContent ?? '') !== '';
}
