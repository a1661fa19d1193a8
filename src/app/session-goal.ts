import { join } from 'node:path';
import type { GoalBook as GoalBookType, GoalView } from '../tools/goal/goal-book.js';
import { GoalBook } from '../tools/goal/goal-book.js';
import { GOAL_TOOL_NAMES, type GoalCheckResult, goalTools } from '../tools/goal/goal-tools.js';
import type { KimiToolset } from '../toolset/kimi-toolset.js';
import { wireEvent } from '../wire/events.js';
import { openWireFileForAppend, recordLine } from '../wire/wire-file.js';

/** The file of a session's goal; a fork copies only the conversation, so it starts without one. */
export const GOAL_FILE = 'goal.jsonl';

/** How much of a failed check's output the model gets back. */
const CHECK_TAIL_CHARS = 2000;

let checkCount = 0;

/**
 * The session's goal: read from the session folder (an active goal comes back paused), its tools
 * registered on the root toolset and shown only while a goal exists, every change told to the wire.
 */
export async function openSessionGoal(
  sessionDir: string,
  toolset: KimiToolset,
  /** The session's wire.jsonl: where a goal paused on resume is recorded, for every replay. */
  wireFile?: string,
  options: { keepActive?: boolean } = {},
): Promise<GoalBookType> {
  const book = await GoalBook.open(join(sessionDir, GOAL_FILE), Date.now, options);
  // The history only lags behind then: a failure to append leaves it as it was, the session opens.
  if (wireFile && book.parkedOnOpen) await recordGoal(wireFile, book.view()).catch(() => undefined);
  for (const tool of goalTools(book, (command, signal) => runCheck(toolset, command, signal)))
    toolset.add(tool);
  const showTools = (view: GoalView) => {
    for (const name of GOAL_TOOL_NAMES) {
      if (view.goal) toolset.unhide(name);
      else toolset.hide(name);
    }
  };
  showTools(book.view());
  book.onChange((view) => {
    showTools(view);
    // The root turn's wire, while one runs.
    toolset.runScope.wire?.send(wireEvent('GoalUpdated', goalUpdatedPayload(view)));
  });
  return book;
}

/**
 * Appends the goal as it is to the session's wire.jsonl: the history (replayed by the terminal UI,
 * the web page, wire `replay`) last said the goal was active, and it is paused now. No turn runs
 * while the session opens, so nothing else writes the file.
 */
async function recordGoal(wireFile: string, view: GoalView): Promise<void> {
  const { handle, prefix } = await openWireFileForAppend(wireFile);
  try {
    const record = recordLine(wireEvent('GoalUpdated', goalUpdatedPayload(view)), Date.now() / 1000);
    await handle.appendFile(prefix + record);
  } finally {
    await handle.close();
  }
}

export function goalUpdatedPayload(view: GoalView) {
  const { goal } = view;
  if (!goal) return { goal: null };
  return {
    goal: {
      id: goal.id,
      objective: goal.objective,
      status: goal.status,
      check: goal.check,
      reason: goal.reason,
      turns_used: goal.turnsUsed,
      tokens_used: goal.tokensUsed,
      elapsed_ms: Math.round(view.elapsedMs),
      max_turns: goal.budget.maxTurns,
      max_tokens: goal.budget.maxTokens,
      max_time_ms: goal.budget.maxTimeMs,
    },
  };
}

/**
 * Runs a goal's check as the model's own Shell call would run: through the toolset, so the policy
 * decides on it, approval is asked as for any command, and the sandbox wraps it.
 */
async function runCheck(
  toolset: KimiToolset,
  command: string,
  signal: AbortSignal,
): Promise<GoalCheckResult> {
  checkCount += 1;
  const result = await toolset.runOnBehalf(
    {
      type: 'function',
      id: `goal-check-${checkCount}`,
      function: { name: 'Shell', arguments: JSON.stringify({ command, timeout: 300 }) },
    },
    { signal, streamOutcome: Promise.resolve(true) },
  );
  const value = result.return_value;
  if (!value.is_error) return { passed: true };
  const output =
    typeof value.output === 'string'
      ? value.output
      : value.output.map((part) => (part.type === 'text' ? part.text : '')).join('');
  const code = /exit code:?\s*(-?\d+)/i.exec(value.message);
  const tail = output.length > CHECK_TAIL_CHARS ? `…${output.slice(-CHECK_TAIL_CHARS)}` : output;
  return {
    passed: false,
    exitCode: code ? Number(code[1]) : null,
    detail: `${value.message}${tail ? `\nOutput (tail):\n${tail}` : ''}`,
  };
}
