import type { DisplayBlock, ToolReturnValue } from '../kosong/index.js';

export const TRUNCATION_MARKER = '[...truncated]';
export const TRUNCATION_NOTICE = 'Output is truncated to fit in the message.';

export interface ToolResultBuilderOptions {
  /** Total characters kept. Default 50,000. */
  maxChars?: number | undefined;
  /** Characters kept per line (marker included); null for no per-line cap. Default 2,000. */
  maxLineLength?: number | null | undefined;
}

/**
 * Collects a tool's text output within a budget (Shell, Grep, web tools share it): 50,000 characters
 * in total and 2,000 per line. A cut line ends with `[...truncated]` and keeps its line break; once
 * anything was cut, the result's message says so.
 */
export class ToolResultBuilder {
  private readonly maxChars: number;
  private readonly maxLineLength: number | null;
  private readonly chunks: string[] = [];
  private readonly blocks: DisplayBlock[] = [];
  private chars = 0;
  private lines = 0;
  private lineLength = 0;
  private lineCut = false;
  private truncated = false;

  constructor(options: ToolResultBuilderOptions = {}) {
    this.maxChars = options.maxChars ?? 50_000;
    this.maxLineLength = options.maxLineLength === undefined ? 2_000 : options.maxLineLength;
  }

  get nChars(): number {
    return this.chars;
  }

  /** Completed lines written. */
  get nLines(): number {
    return this.lines;
  }

  get isFull(): boolean {
    return this.chars >= this.maxChars;
  }

  get wasTruncated(): boolean {
    return this.truncated;
  }

  /** Writes text (any number of lines, or part of one); returns how many characters were kept. */
  write(text: string): number {
    let kept = 0;
    for (const match of text.matchAll(/([^\n]*)(\n?)/g)) {
      const [, content = '', newline = ''] = match;
      if (content === '' && newline === '') continue;
      if (this.isFull) {
        this.truncated = true;
        break;
      }
      let piece = this.fitToLine(content);
      if (newline) {
        piece += newline;
        this.lineLength = 0;
        this.lineCut = false;
      }
      const remaining = this.maxChars - this.chars;
      if (piece.length > remaining) {
        piece = piece.slice(0, remaining);
        this.truncated = true;
      }
      this.chunks.push(piece);
      this.chars += piece.length;
      kept += piece.length;
      if (piece.endsWith('\n')) this.lines++;
    }
    return kept;
  }

  /** Adds display blocks for the UI. */
  display(...blocks: DisplayBlock[]): this {
    this.blocks.push(...blocks);
    return this;
  }

  get output(): string {
    return this.chunks.join('');
  }

  ok(message = '', brief = ''): ToolReturnValue {
    return {
      is_error: false,
      output: this.output,
      message: this.finalMessage(message),
      display: this.finalDisplay(brief),
    };
  }

  error(message: string, brief: string): ToolReturnValue {
    return {
      is_error: true,
      output: this.output,
      message: this.finalMessage(message),
      display: this.finalDisplay(brief),
    };
  }

  /** The last `lineCount` non-empty lines, each cut to `width` characters (for error briefs). */
  tail(lineCount = 5, width = 200): string {
    return this.output
      .split('\n')
      .filter((line) => line.trim() !== '')
      .slice(-lineCount)
      .map((line) => (line.length > width ? `${line.slice(0, width - 1)}…` : line))
      .join('\n');
  }

  private fitToLine(content: string): string {
    if (this.lineCut) {
      if (content) this.truncated = true;
      return '';
    }
    const cap = this.maxLineLength;
    if (cap === null || this.lineLength + content.length <= cap) {
      this.lineLength += content.length;
      return content;
    }
    const keep = Math.max(0, cap - TRUNCATION_MARKER.length - this.lineLength);
    this.lineLength = cap;
    this.lineCut = true;
    this.truncated = true;
    return content.slice(0, keep) + TRUNCATION_MARKER;
  }

  private finalMessage(message: string): string {
    let text = message && !/[.!?\u3002]$/.test(message) ? `${message}.` : message;
    if (this.truncated) text = text ? `${text} ${TRUNCATION_NOTICE}` : TRUNCATION_NOTICE;
    return text;
  }

  private finalDisplay(brief: string): DisplayBlock[] {
    return brief ? [{ type: 'brief', text: brief }, ...this.blocks] : [...this.blocks];
  }
}
