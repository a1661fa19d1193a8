/**
 * The few text styles the shell and the TUI use, as ANSI escapes; all of them plain text when colour is off (not
 * a terminal, or `NO_COLOR` set, see https://no-color.org).
 */
import type { TerminalSafe } from '../../util/sanitize-terminal.js';

/** Styles wrap safe text in our own escapes: the result is as safe as what went in. */
export interface AnsiStyle {
  /** Secondary text: thinking, tool arguments, the status line. */
  dim(text: TerminalSafe): TerminalSafe;
  /** Thinking: dim and italic. */
  thought(text: TerminalSafe): TerminalSafe;
  ok(text: TerminalSafe): TerminalSafe;
  error(text: TerminalSafe): TerminalSafe;
  /** Names worth spotting: tools, questions. */
  accent(text: TerminalSafe): TerminalSafe;
}

const paint = (open: string, close: string) => (text: TerminalSafe) =>
  (text ? `\x1b[${open}m${text}\x1b[${close}m` : text) as TerminalSafe;

const COLOR: AnsiStyle = {
  dim: paint('2', '22'),
  thought: paint('2;3', '23;22'),
  ok: paint('32', '39'),
  error: paint('31', '39'),
  accent: paint('36', '39'),
};

const same = (text: TerminalSafe) => text;
const PLAIN: AnsiStyle = { dim: same, thought: same, ok: same, error: same, accent: same };

export function ansiStyle(color: boolean): AnsiStyle {
  return color ? COLOR : PLAIN;
}

/** Whether the shell should colour its output: a terminal, and `NO_COLOR` unset or empty. */
export function wantsColor(isTerminal: boolean, env: Readonly<Record<string, string | undefined>>): boolean {
  return isTerminal && !env.NO_COLOR;
}
