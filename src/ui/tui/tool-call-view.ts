import type { DisplayBlock, ToolReturnValue } from '../../kosong/tool.js';
import { type TerminalSafe, terminalText as t } from '../../util/sanitize-terminal.js';
import type { DiffDisplayBlock } from '../../wire/display.js';
import { extractKeyArgument } from '../../wire/key-argument.js';
import { hiddenLinesText, isCommandTool, previewOutput } from '../common/output-preview.js';
import { renderDiff } from './diff-lines.js';
import type { SafeComponent } from './safe-component.js';
import { sanitizeForTerminal } from './sanitize-for-terminal.js';
import { fitLine } from './terminal-lines.js';
import type { TuiStyle } from './tui-style.js';

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'] as const;
const SPINNER_INTERVAL_MS = 80;
/** Lines of a running call's live output shown under it. */
export const LIVE_OUTPUT_LINES = 5;
/** What is kept of the live output (enough for the last lines). */
const LIVE_OUTPUT_KEEP_CHARS = 8192;

/** The spinner frame for now: every running call turns in step. */
export function spinnerFrame(now = Date.now()): (typeof SPINNER)[number] | '·' {
  return SPINNER[Math.floor(now / SPINNER_INTERVAL_MS) % SPINNER.length] ?? '·';
}

/**
 * One tool call: shown as soon as its name streams, with its key argument read from the arguments
 * so far (updated as they grow), a spinner while it runs, then a one-line summary of the result (and
 * a coloured diff for file edits). A subagent's own calls show nested under its call.
 */
export class ToolCallView implements SafeComponent {
  private args = '';
  private result: ToolReturnValue | null = null;
  private abandoned = false;
  /** The latest output of the running call (ToolOutput events). */
  private liveOutput = '';
  /** The call's name as shown (a tool's name is the model's or an MCP server's text). */
  private readonly shownName: TerminalSafe;
  /** What a subagent started by this call shows, indented under it. */
  nested: SafeComponent | null = null;
  /** Whether the result's output is shown (Ctrl-E), not only its summary. */
  expanded = false;

  constructor(
    readonly id: string,
    private readonly name: string,
    private readonly workDir: string,
    private readonly style: TuiStyle,
  ) {
    this.shownName = sanitizeForTerminal(name);
  }

  appendArguments(part: string): void {
    this.args += part;
  }

  /** Output of the running call, as it comes; its last lines show until the result arrives. */
  appendOutput(text: string): void {
    this.liveOutput = (this.liveOutput + text).slice(-LIVE_OUTPUT_KEEP_CHARS);
  }

  finish(result: ToolReturnValue): void {
    this.result = result;
  }

  /** The call will get no result (its step ended without running it): the spinner stops. */
  abandon(): void {
    this.abandoned = true;
  }

  get isRunning(): boolean {
    return this.result === null && !this.abandoned;
  }

  render(width: number): TerminalSafe[] {
    const { style } = this;
    const key = extractKeyArgument(this.name, this.args, this.workDir);
    const mark =
      this.result === null
        ? this.abandoned
          ? style.dim('·')
          : style.accent(spinnerFrame())
        : this.result.is_error
          ? style.error('✗')
          : style.ok('✓');
    const head = t`${mark} ${style.bold(this.shownName)}${key ? t` ${style.dim(sanitizeForTerminal(key))}` : t``}`;
    const lines = [fitLine(head, width)];
    // Nested under the call, 4 columns in (the library refuses a line wider than the terminal).
    if (this.nested && width > 8)
      for (const line of this.nested.render(width - 4)) lines.push(t`    ${line}`);
    if (this.result === null) {
      if (this.abandoned) lines.push(fitLine(t`  ${style.dim('└ not run')}`, width));
      else
        for (const line of lastLines(this.liveOutput, LIVE_OUTPUT_LINES))
          lines.push(fitLine(t`  ${style.dim('│')} ${style.dim(line)}`, width));
      return lines;
    }
    const summary = summarize(this.result);
    if (summary) {
      const paint = this.result.is_error ? style.error : style.dim;
      lines.push(fitLine(t`  ${style.dim('└')} ${paint(sanitizeForTerminal(summary))}`, width));
    }
    for (const block of this.result.display) {
      if (isDiff(block)) lines.push(...renderDiff(block, style, width, t`    `));
    }
    if (this.expanded) lines.push(...expandedOutput(this.result, width).map((line) => style.dim(line)));
    else if (isCommandTool(this.name)) lines.push(...foldedOutput(this.result, width, style));
    return lines;
  }

  invalidate(): void {
    this.nested?.invalidate();
  }
}

/** The brief a tool gave for people, else its message, else the first line of its output. */
function summarize(result: ToolReturnValue): string {
  const brief = result.display.find((block) => block.type === 'brief');
  if (brief && 'text' in brief && typeof brief.text === 'string' && brief.text) return firstLine(brief.text);
  if (result.message) return firstLine(result.message);
  if (typeof result.output === 'string' && result.output.trim()) {
    const lines = result.output.trimEnd().split('\n');
    return lines.length > 1
      ? `${firstLine(lines[0] ?? '')} (+${lines.length - 1} lines)`
      : firstLine(lines[0] ?? '');
  }
  return result.is_error ? 'failed' : 'done';
}

/** Lines of output shown when a result is expanded. */
const EXPANDED_LINES = 40;

function expandedOutput(result: ToolReturnValue, width: number): TerminalSafe[] {
  const text =
    typeof result.output === 'string'
      ? result.output
      : result.output.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
  const lines = sanitizeForTerminal(text).trimEnd().split('\n') as TerminalSafe[];
  const shown = lines.slice(0, EXPANDED_LINES).map((line) => fitLine(t`    ${line}`, width));
  if (lines.length > EXPANDED_LINES) shown.push(t`    \u2026 ${lines.length - EXPANDED_LINES} more lines`);
  return shown;
}

/**
 * A command's output under its summary, folded to its first and last lines (Ctrl-E shows it whole):
 * the output is what the person asked the command for, not a detail to dig out.
 */
function foldedOutput(result: ToolReturnValue, width: number, style: TuiStyle): TerminalSafe[] {
  if (typeof result.output !== 'string' || !result.output.trim()) return [];
  const { head, hidden, tail } = previewOutput(result.output);
  const line = (text: string) => fitLine(t`    ${style.dim(sanitizeForTerminal(text))}`, width);
  return [
    ...head.map(line),
    ...(hidden > 0
      ? [fitLine(t`    ${style.accent(t`${sanitizeForTerminal(hiddenLinesText(hidden))} (Ctrl-E)`)}`, width)]
      : []),
    ...tail.map(line),
  ];
}

/**
 * The last `count` lines of live output, inert: a line redrawn with carriage returns (a progress bar)
 * shows as its latest state.
 */
function lastLines(text: string, count: number): TerminalSafe[] {
  if (!text) return [];
  return text
    .replace(/\r\n/g, '\n')
    .trimEnd()
    .split('\n')
    .slice(-count)
    .map((line) => sanitizeForTerminal(line.slice(line.lastIndexOf('\r') + 1)));
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}

function isDiff(block: DisplayBlock): block is DiffDisplayBlock {
  return block.type === 'diff' && 'old_text' in block && 'new_text' in block;
}
