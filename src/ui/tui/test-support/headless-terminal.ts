import type { Terminal } from '@mariozechner/pi-tui';
import xterm from '@xterm/headless';

/**
 * A terminal emulator in memory (xterm.js, headless) behind pi-tui's Terminal interface: what the TUI
 * writes is parsed as a real terminal would, and the screen and scrollback can be read back exactly.
 */
export class HeadlessTerminal implements Terminal {
  readonly emulator: xterm.Terminal;
  private pending: Promise<void> = Promise.resolve();
  private onInput: ((data: string) => void) | null = null;
  private onResize: (() => void) | null = null;
  private writes = 0;
  private waiters: (() => void)[] = [];

  constructor(columns: number, rows: number) {
    this.emulator = new xterm.Terminal({ cols: columns, rows, scrollback: 10_000, allowProposedApi: true });
  }

  start(onInput: (data: string) => void, onResize: () => void): void {
    this.onInput = onInput;
    this.onResize = onResize;
  }

  stop(): void {
    this.onInput = null;
    this.onResize = null;
  }

  async drainInput(): Promise<void> {}

  write(data: string): void {
    this.writes++;
    this.pending = new Promise((resolve) =>
      this.emulator.write(data, () => {
        resolve();
        for (const waiter of this.waiters.splice(0)) waiter();
      }),
    );
  }

  /** Resolves once the TUI wrote something after now, and the emulator parsed it. */
  nextWrite(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Everything written so far, parsed. */
  settled(): Promise<void> {
    return this.pending;
  }

  get writeCount(): number {
    return this.writes;
  }

  get columns(): number {
    return this.emulator.cols;
  }

  get rows(): number {
    return this.emulator.rows;
  }

  get kittyProtocolActive(): boolean {
    return false;
  }

  moveBy(lines: number): void {
    if (lines > 0) this.write(`\x1b[${lines}B`);
    else if (lines < 0) this.write(`\x1b[${-lines}A`);
  }

  hideCursor(): void {
    this.write('\x1b[?25l');
  }

  showCursor(): void {
    this.write('\x1b[?25h');
  }

  clearLine(): void {
    this.write('\x1b[K');
  }

  clearFromCursor(): void {
    this.write('\x1b[J');
  }

  clearScreen(): void {
    this.write('\x1b[2J\x1b[H');
  }

  setTitle(): void {}

  setProgress(): void {}

  /** Types keys as the user would. */
  type(data: string): void {
    this.onInput?.(data);
  }

  resize(columns: number, rows: number): void {
    this.emulator.resize(columns, rows);
    this.onResize?.();
  }

  /** Scrollback and screen, one string per row, trailing blanks trimmed, trailing empty rows dropped. */
  lines(): string[] {
    const buffer = this.emulator.buffer.active;
    const rows: string[] = [];
    for (let y = 0; y < buffer.length; y++)
      rows.push((buffer.getLine(y)?.translateToString(true) ?? '').trimEnd());
    while (rows.length > 0 && rows.at(-1) === '') rows.pop();
    return rows;
  }
}
