/** Kimi CLI's stdin buffer limit for wire mode: no single line may be longer. */
export const MAX_LINE_BYTES = 100 * 1024 * 1024;

export interface LineSplitterHandlers {
  /** A complete line, decoded as UTF-8, without its `\n` or `\r\n`. */
  onLine(line: string): void;
  /** A line grew past the limit; it is dropped up to its end, and this is called once for it. */
  onOverflow(): void;
}

/**
 * Splits a byte stream into lines. Chunks may end anywhere (mid-line, mid-character); bytes are
 * kept until their line is complete and decoded only then, so a UTF-8 character split across
 * chunks survives. A line longer than `maxBytes` is discarded without being buffered.
 */
export class LineSplitter {
  private parts: Buffer[] = [];
  private size = 0;
  private discarding = false;

  constructor(
    private readonly handlers: LineSplitterHandlers,
    private readonly maxBytes = MAX_LINE_BYTES,
  ) {}

  push(chunk: Buffer | string): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    let start = 0;
    while (start < bytes.length) {
      const newline = bytes.indexOf(0x0a, start);
      const end = newline === -1 ? bytes.length : newline;
      this.take(bytes.subarray(start, end));
      if (newline === -1) return;
      this.finishLine();
      start = newline + 1;
    }
  }

  /** The input ended: a last line without a newline still counts. */
  end(): void {
    if (this.size > 0 || this.discarding) this.finishLine();
  }

  private take(piece: Buffer): void {
    if (this.discarding || piece.length === 0) return;
    if (this.size + piece.length > this.maxBytes) {
      this.parts = [];
      this.size = 0;
      this.discarding = true;
      this.handlers.onOverflow();
      return;
    }
    this.parts.push(piece);
    this.size += piece.length;
  }

  private finishLine(): void {
    if (this.discarding) {
      this.discarding = false;
      return;
    }
    const parts = this.parts;
    this.parts = [];
    this.size = 0;
    let line = (parts.length === 1 ? parts[0]! : Buffer.concat(parts)).toString('utf8');
    if (line.endsWith('\r')) line = line.slice(0, -1);
    this.handlers.onLine(line);
  }
}
