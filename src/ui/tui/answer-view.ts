import { type TerminalSafe, trustedLiteral } from '../../util/sanitize-terminal.js';
import { MarkdownStream } from './markdown-stream.js';
import { type SafeComponent, SafeMarkdown } from './safe-component.js';
import { sanitizeForTerminal } from './sanitize-for-terminal.js';
import type { TuiStyle } from './tui-style.js';

/**
 * The answer as rendered Markdown while it streams. Each finished block is its own Markdown
 * component (rendered once per width, then cached); only the open tail is parsed again per frame,
 * so a long answer costs no more per frame than a short one.
 */
export class AnswerView implements SafeComponent {
  private readonly stream = new MarkdownStream();
  private readonly blocks: SafeMarkdown[] = [];
  private readonly tail: SafeMarkdown;

  constructor(private readonly style: TuiStyle) {
    this.tail = new SafeMarkdown(trustedLiteral(''), style.markdown);
  }

  /** Adds streamed answer text (made inert first: model text never reaches the terminal raw). */
  append(text: string): void {
    // The stream holds only sanitised text, and its blocks and tail are slices of it: still safe.
    for (const block of this.stream.append(sanitizeForTerminal(text))) {
      this.blocks.push(new SafeMarkdown(block as TerminalSafe, this.style.markdown));
    }
    this.tail.setText(this.stream.tail as TerminalSafe);
  }

  get text(): string {
    return this.stream.all;
  }

  render(width: number): TerminalSafe[] {
    const lines: TerminalSafe[] = [];
    // One blank line between blocks, whatever spacing each block's own rendering ends with.
    for (const block of this.blocks) lines.push(...withoutTrailingBlanks(block.render(width)), BLANK);
    lines.push(...this.tail.render(width));
    return withoutTrailingBlanks(lines);
  }

  invalidate(): void {
    for (const block of this.blocks) block.invalidate();
    this.tail.invalidate();
  }
}

const BLANK = trustedLiteral('');

function withoutTrailingBlanks(lines: TerminalSafe[]): TerminalSafe[] {
  let end = lines.length;
  while (end > 0 && lines[end - 1]?.trim() === '') end--;
  return end === lines.length ? lines : lines.slice(0, end);
}
