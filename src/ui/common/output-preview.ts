/**
 * A command's output shown inline, folded: its first and last lines with a count of the lines
 * between (the whole output stays one key or click away). Shared by the TUI, the line shell and the
 * web page so the three fold the same lines. The lines are NOT sanitised here: each front end makes
 * them inert its own way (terminal: escapes shown as symbols; page: text nodes).
 */

/** Lines shown from the start and from the end of a folded output. */
export const PREVIEW_HEAD_LINES = 3;
export const PREVIEW_TAIL_LINES = 3;

export interface OutputPreview {
  head: string[];
  /** Lines between head and tail that are not shown (0: the whole output is in head + tail). */
  hidden: number;
  tail: string[];
}

/**
 * The output split into lines (a line redrawn with `\r`, a progress bar, in its latest state; the
 * final newline dropped) and folded to head and tail.
 */
export function previewOutput(
  text: string,
  head = PREVIEW_HEAD_LINES,
  tail = PREVIEW_TAIL_LINES,
): OutputPreview {
  const lines = outputLines(text);
  if (lines.length <= head + tail + 1) return { head: lines, hidden: 0, tail: [] };
  return { head: lines.slice(0, head), hidden: lines.length - head - tail, tail: lines.slice(-tail) };
}

/** `… 14 lines hidden` (with the singular for one). */
export function hiddenLinesText(hidden: number): string {
  return `… ${hidden} ${hidden === 1 ? 'line' : 'lines'} hidden`;
}

/** The output's lines as a terminal would leave them (`\r\n` as one break, `\r` overwriting). */
export function outputLines(text: string): string[] {
  const lines = text
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((line) => line.slice(line.lastIndexOf('\r') + 1));
  while (lines.length > 0 && lines.at(-1)?.trim() === '') lines.pop();
  return lines;
}

/** Tools whose output is a command's output, shown folded inline (Kimi CLI's Shell). */
export function isCommandTool(name: string): boolean {
  return name === 'Shell';
}
