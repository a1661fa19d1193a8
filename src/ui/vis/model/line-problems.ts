const MAX_PROBLEMS = 20;

/**
 * The lines of wire.jsonl that could not be read (the first few). A line that is not JSON is held back
 * until the next one: only the last line of a file that does not end in a newline is "torn" (cut by a
 * crash while it was written), every other bad line is a problem.
 */
export class LineProblems {
  readonly list: { line: number; message: string }[] = [];
  private pendingBadLine: number | null = null;

  badJson(line: number): void {
    this.flush();
    this.pendingBadLine = line;
  }

  add(line: number, message: string): void {
    if (this.list.length < MAX_PROBLEMS) this.list.push({ line, message });
  }

  /** A readable line came after the held-back one: that one was not the last. */
  flush(): void {
    if (this.pendingBadLine === null) return;
    this.add(this.pendingBadLine, 'Not valid JSON.');
    this.pendingBadLine = null;
  }

  /** Returns whether the file's tail is torn. */
  finish(lastLine: number, terminated: boolean): boolean {
    if (this.pendingBadLine !== null && !terminated && this.pendingBadLine === lastLine) {
      this.add(this.pendingBadLine, 'The last line is incomplete (cut while being written).');
      this.pendingBadLine = null;
      return true;
    }
    this.flush();
    return false;
  }
}

/** The head of a wire record of a streamed part, as kimi-ts and Kimi CLI write it. */
const STREAMED_PART_HEAD =
  /^\{\s*"timestamp":\s*(-?[0-9][0-9.eE+-]*),\s*"message":\s*\{\s*"type":\s*"(?:ContentPart|ToolCallPart)"/;

/**
 * Streamed text, thinking and argument fragments are most of a session's bytes, and only their time
 * matters to the picture: it is read from the line's head instead of parsing the whole line. A line
 * that does not end like a record (a torn one) gets null, so the full parse reports it.
 */
export function streamedPartTime(line: string): number | null {
  const head = STREAMED_PART_HEAD.exec(line);
  if (!head || !line.endsWith('}}}')) return null;
  const time = Number(head[1]);
  return Number.isFinite(time) ? time : null;
}
