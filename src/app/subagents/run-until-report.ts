import { extractText, type Message } from '../../kosong/message.js';
import type { Soul } from '../../soul/soul.js';
import type { RunContext } from '../../toolset/run-scope.js';

/** A final answer shorter than this gets one continuation turn asking for a fuller report. */
export const SUMMARY_MIN_CHARS = 200;

export const CONTINUATION_PROMPT =
  'Your last message is too short to serve as the report of this task. Write the full report now: ' +
  'what you did, what you found (with file paths and the relevant details), the outcome, and ' +
  'anything that is still open. Do not start new work.';

/** The subagent's last message is not an assistant message (its turn ended on something else). */
export class InvalidAgentResult extends Error {
  override name = 'InvalidAgentResult';
  constructor() {
    super('The agent did not produce a valid assistant response.');
  }
}

/** The subagent finished with no text at all. */
export class EmptyAgentOutput extends Error {
  override name = 'EmptyAgentOutput';
  constructor() {
    super('Agent completed but produced no output.');
  }
}

/**
 * Runs the subagent's turn on `prompt` and returns its final text, after one continuation turn
 * when that text is too short to be a useful report.
 */
export async function runUntilReport(
  soul: Soul,
  prompt: string,
  signal: AbortSignal,
  /** The run's wire and approval source; absent: those current in the caller. */
  context?: RunContext,
): Promise<string> {
  await soul.run(prompt, signal, { context });
  let report = finalText(soul.context.history);
  if (report.trim().length < SUMMARY_MIN_CHARS) {
    await soul.run(CONTINUATION_PROMPT, signal, { skipUserPromptHook: true, context });
    report = finalText(soul.context.history);
  }
  if (!report.trim()) throw new EmptyAgentOutput();
  return report;
}

function finalText(history: readonly Message[]): string {
  const last = history.at(-1);
  if (last?.role !== 'assistant') throw new InvalidAgentResult();
  return extractText(last, '\n');
}
