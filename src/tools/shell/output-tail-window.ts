/** The most characters of a command's output kept for its last lines. */
const TAIL_WINDOW_CHARS = 8 * 1024;

/**
 * The end of a command's output, bounded however much it prints: the result builder keeps the
 * beginning (up to its cap), this keeps the last few KiB, so a failure's brief quotes the lines
 * that came last and the size of what was dropped can be told.
 */
export class OutputTailWindow {
  private text = '';
  private total = 0;

  write(chunk: string): void {
    this.total += chunk.length;
    this.text += chunk;
    if (this.text.length > 2 * TAIL_WINDOW_CHARS) this.text = this.text.slice(-TAIL_WINDOW_CHARS);
  }

  /** Characters written in all. */
  get totalChars(): number {
    return this.total;
  }

  /** The last `lineCount` non-empty lines, each cut to `width` characters. */
  tail(lineCount = 5, width = 200): string {
    const lines = this.text.slice(-TAIL_WINDOW_CHARS).split('\n');
    // The first line of the window may be the end of a longer one; it is still its last characters.
    return lines
      .filter((line) => line.trim() !== '')
      .slice(-lineCount)
      .map((line) => (line.length > width ? `${line.slice(0, width - 1)}…` : line))
      .join('\n');
  }
}
