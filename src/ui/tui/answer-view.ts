import { type Component, Markdown } from '@mariozechner/pi-tui';
import { MarkdownStream } from './markdown-stream.js';
import { sanitizeForTerminal } from './sanitize-for-terminal.js';
import type { TuiStyle } from './tui-style.js';

/**
 * The answer as rendered Markdown while it streams. Each finished block is its own Markdown
 * component (rendered once per width, then cached); only the open tail is parsed again per frame,
 * so a long answer costs no more per frame than a short one.
 */
export class AnswerView implements Component {
  private readonly stream = new MarkdownStream();
  private readonly blocks: Markdown[] = [];
  private readonly tail: Markdown;

  constructor(private readonly style: TuiStyle) {
    this.tail = new Markdown('', 0, 0, style.markdown);
  }

  /** Adds streamed answer text (made inert first: model text never reaches the terminal raw). */
  append(text: string): void {
    for (const block of this.stream.append(sanitizeForTerminal(text))) {
      this.blocks.push(new Markdown(block, 0, 0, this.style.markdown));
    }
    this.tail.setText(this.stream.tail);
  }

  get text(): string {
    return this.stream.all;
  }

  render(width: number): string[] {
    const lines: string[] = [];
    // One blank line between blocks, whatever spacing each block's own rendering ends with.
    for (const block of this.blocks) lines.push(...withoutTrailingBlanks(block.render(width)), '');
    lines.push(...this.tail.render(width));
    return withoutTrailingBlanks(lines);
  }

  invalidate(): void {
    for (const block of this.blocks) block.invalidate();
    this.tail.invalidate();
  }
}

function withoutTrailingBlanks(lines: string[]): string[] {
  let end = lines.length;
  while (end > 0 && lines[end - 1]?.trim() === '') end--;
  return end === lines.length ? lines : lines.slice(0, end);
}
