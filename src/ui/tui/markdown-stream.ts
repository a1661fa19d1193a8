/**
 * Cuts an answer that is still streaming into Markdown blocks that are finished and the open tail.
 * A block ends at a blank line outside a code fence, once the next line shows it does not continue
 * the block (an indented line continues a list item). Finished blocks never change again, so the
 * renderer renders each of them once; only the tail is parsed again as text arrives.
 */
export class MarkdownStream {
  /**
   * The text from the first block not yet handed out on. What was handed out moves to `head`: a
   * block is a slice of `text`, and V8 keeps a slice's whole parent string alive, so slicing blocks
   * out of one ever-growing string kept every version of the whole answer (44 MiB held after a
   * 20,000-token answer, issue 14's bench).
   */
  private text = '';
  /** The text before `text`, in the pieces it was cut into. */
  private readonly head: string[] = [];
  /** Where the first block not yet handed out starts. */
  private committed = 0;
  /** Where the next line to look at starts. */
  private scanned = 0;
  private inFence = false;
  private fenceMarker = '';
  /** The end of the blank line that may end the open block, once the next line agrees. */
  private boundary: number | null = null;

  /** Adds streamed text; returns the blocks it finished, in order. */
  append(chunk: string): string[] {
    this.text += chunk;
    const finished: string[] = [];
    for (
      let end = this.text.indexOf('\n', this.scanned);
      end !== -1;
      end = this.text.indexOf('\n', this.scanned)
    ) {
      const line = this.text.slice(this.scanned, end);
      const lineStart = this.scanned;
      this.scanned = end + 1;
      if (this.boundary !== null && line.trim() !== '') {
        if (!/^[ \t]/.test(line)) {
          finished.push(this.text.slice(this.committed, this.boundary));
          this.committed = lineStart;
        }
        this.boundary = null;
      }
      const fence = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
      if (
        fence &&
        (!this.inFence || (fence[0] === this.fenceMarker[0] && fence.length >= this.fenceMarker.length))
      ) {
        this.inFence = !this.inFence;
        this.fenceMarker = this.inFence ? fence : '';
      } else if (!this.inFence && line.trim() === '' && this.committed < lineStart) {
        this.boundary = this.scanned;
      }
    }
    // The first character of the next line already tells whether it continues the open block.
    const next = this.text[this.scanned];
    if (this.boundary !== null && next !== undefined && next !== ' ' && next !== '\t') {
      finished.push(this.text.slice(this.committed, this.boundary));
      this.committed = this.scanned;
      this.boundary = null;
    }
    if (this.committed > 0) this.dropCommitted();
    return finished;
  }

  /** Moves the text before `committed` to `head`; the offsets follow. */
  private dropCommitted(): void {
    const cut = this.committed;
    this.head.push(this.text.slice(0, cut));
    this.text = this.text.slice(cut);
    this.scanned -= cut;
    if (this.boundary !== null) this.boundary -= cut;
    this.committed = 0;
  }

  /** The text after the finished blocks (still changing while the answer streams). */
  get tail(): string {
    return this.text.slice(this.committed);
  }

  /** Everything appended so far. */
  get all(): string {
    return this.head.join('') + this.text;
  }
}
