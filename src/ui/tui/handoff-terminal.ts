import type { Terminal } from '@mariozechner/pi-tui';

/**
 * A terminal handed from the start-up prompt (`splash.ts`) to the TUI proper without leaving raw
 * mode in between: the first `stop()` only detaches the start-up prompt (keys typed until the TUI
 * starts are kept for it, never echoed by the terminal), every later start/stop is real (an external
 * editor must get the terminal as it was). `close()` gives the terminal back for good.
 */
export class HandoffTerminal implements Terminal {
  private onInput: ((data: string) => void) | undefined;
  private onResize: (() => void) | undefined;
  private pending: string[] = [];
  private isStarted = false;
  private isBridging = true;

  constructor(private readonly inner: Terminal) {}

  start(onInput: (data: string) => void, onResize: () => void): void {
    this.onInput = onInput;
    this.onResize = onResize;
    if (!this.isStarted) {
      this.isStarted = true;
      this.inner.start(
        (data) => (this.onInput ? this.onInput(data) : this.pending.push(data)),
        () => this.onResize?.(),
      );
    }
    for (let data = this.pending.shift(); data !== undefined; data = this.pending.shift()) onInput(data);
  }

  /** Keys to deliver, before any newer ones, to the next `start`'s handler. */
  replay(keys: readonly string[]): void {
    this.pending.unshift(...keys);
  }

  stop(): void {
    this.onInput = undefined;
    this.onResize = undefined;
    if (this.isBridging) {
      this.isBridging = false;
      return;
    }
    this.close();
  }

  /** Leaves raw mode and stops reading keys (if it was started). */
  close(): void {
    this.onInput = undefined;
    this.onResize = undefined;
    this.isBridging = false;
    if (!this.isStarted) return;
    this.isStarted = false;
    this.inner.stop();
  }

  drainInput(maxMs?: number, idleMs?: number): Promise<void> {
    return this.inner.drainInput(maxMs, idleMs);
  }
  write(data: string): void {
    this.inner.write(data);
  }
  get columns(): number {
    return this.inner.columns;
  }
  get rows(): number {
    return this.inner.rows;
  }
  get kittyProtocolActive(): boolean {
    return this.inner.kittyProtocolActive;
  }
  moveBy(lines: number): void {
    this.inner.moveBy(lines);
  }
  hideCursor(): void {
    this.inner.hideCursor();
  }
  showCursor(): void {
    this.inner.showCursor();
  }
  clearLine(): void {
    this.inner.clearLine();
  }
  clearFromCursor(): void {
    this.inner.clearFromCursor();
  }
  clearScreen(): void {
    this.inner.clearScreen();
  }
  setTitle(title: string): void {
    this.inner.setTitle(title);
  }
  setProgress(active: boolean): void {
    this.inner.setProgress(active);
  }
}
