import { z } from 'zod';
import { toolError, toolOk } from '../../kosong/tool.js';
import { declareParameters } from '../../toolset/declared-parameters.js';
import { defineTool, type KimiTool } from '../../toolset/tool-definition.js';
import { formatDuration, type GoalBook, GoalError, type GoalView } from './goal-book.js';

/** The goal tools' names: they do not count as progress, and they are shown only while a goal exists. */
export const GOAL_TOOL_NAMES = ['GetGoal', 'UpdateGoal', 'SetGoalBudget', 'CreateGoal'] as const;

/** How a goal's check went: run as the Shell tool runs a command (policy, approval, sandbox). */
export type GoalCheckResult = { passed: true } | { passed: false; exitCode: number | null; detail: string };

export type GoalCheckRunner = (command: string, signal: AbortSignal) => Promise<GoalCheckResult>;

// Declared, not built: every session makes the goal tools on the path to its first model request,
// and the request offers them only while a goal exists (their schemas are built on first use).
const getGoalParams = declareParameters('GetGoal', () => z.object({}));
const updateGoalParams = declareParameters('UpdateGoal', () =>
  z.object({
    status: z.enum(['active', 'complete', 'blocked']),
    reason: z.string().max(2000).optional().describe('Why (for blocked: the blocker).'),
  }),
);
const setGoalBudgetParams = declareParameters('SetGoalBudget', () => {
  const positive = z.number().int().positive();
  return z.object({
    max_turns: positive.optional(),
    max_tokens: positive.optional(),
    max_time_minutes: z.number().positive().max(10_080).optional(),
  });
});
const createGoalParams = declareParameters('CreateGoal', () =>
  z.object({
    objective: z.string().min(1),
    check: z.string().optional().describe('A shell command; the goal completes only when it exits 0.'),
    replace: z.boolean().optional(),
  }),
);

/** The goal as the model reads it: plain JSON. */
export function goalForModel(view: GoalView): string {
  const { goal } = view;
  if (!goal) return JSON.stringify({ goal: null });
  const { budget } = goal;
  return JSON.stringify({
    goal: {
      objective: goal.objective,
      check: goal.check,
      status: goal.status,
      reason: goal.reason,
      turns_used: goal.turnsUsed,
      tokens_used: goal.tokensUsed,
      time_used: formatDuration(view.elapsedMs),
      budget: {
        max_turns: budget.maxTurns,
        max_tokens: budget.maxTokens,
        max_time: budget.maxTimeMs === null ? null : formatDuration(budget.maxTimeMs),
      },
    },
  });
}

/**
 * GetGoal, UpdateGoal, SetGoalBudget, CreateGoal over the session's goal (main agent only). The
 * model's `complete` is a claim: with a check, the goal completes only if the check exits 0.
 */
export function goalTools(book: GoalBook, runCheck: GoalCheckRunner): KimiTool[] {
  const getGoal = defineTool({
    name: 'GetGoal',
    description:
      'Read the current goal: objective, check command, status, and turns / tokens / time used against their budgets. Returns {"goal": null} when there is none.',
    params: getGoalParams,
    effect: 'read-only',
    call: () => toolOk(goalForModel(book.view()), 'Goal read'),
  });
  const updateGoal = defineTool({
    name: 'UpdateGoal',
    description:
      'Set the status of the current goal. `complete`: every requirement is met (a check command, if the goal has one, is run and must exit 0). `blocked`: a genuine impasse, or the objective is impossible, unsafe or contradictory (give the reason). `active`: resume a paused or blocked goal when the user asks. Most goal turns should not call this: end the turn and the runtime continues the goal.',
    params: updateGoalParams,
    effect: 'read-only',
    async call({ status, reason }, ctx) {
      const goal = book.current();
      if (!goal) return toolError('There is no goal.', 'No goal');
      if (status === 'complete' && goal.check) {
        const result = await runCheck(goal.check, ctx.signal);
        if (!result.passed) {
          const code = result.exitCode === null ? 'did not pass' : `exited with code ${result.exitCode}`;
          return toolError(
            `The goal is NOT complete: its check \`${goal.check}\` ${code}. The goal stays active; fix the cause and try again.\n${result.detail}`,
            'Check failed',
          );
        }
      }
      book.setStatus(status, reason?.trim() || null);
      switch (status) {
        case 'complete':
          return toolOk(
            goal.check
              ? `The check \`${goal.check}\` passed. The goal is complete.`
              : 'The goal is complete.',
            'Goal complete',
          );
        case 'blocked':
          return toolOk(
            'The goal is blocked. Explain the blocker to the user; do not call more goal tools.',
            'Goal blocked',
          );
        case 'active':
          return toolOk('The goal is active again.', 'Goal resumed');
      }
    },
  });
  const setBudget = defineTool({
    name: 'SetGoalBudget',
    description:
      'Set a budget on the current goal when the user states a hard limit: turns, tokens, or time. Do not invent budgets.',
    params: setGoalBudgetParams,
    effect: 'read-only',
    call({ max_turns, max_tokens, max_time_minutes }) {
      const budget = {
        ...(max_turns === undefined ? {} : { maxTurns: max_turns }),
        ...(max_tokens === undefined ? {} : { maxTokens: max_tokens }),
        ...(max_time_minutes === undefined ? {} : { maxTimeMs: Math.round(max_time_minutes * 60_000) }),
      };
      if (Object.keys(budget).length === 0) return toolError('Give at least one budget.', 'No budget');
      const goal = book.current();
      if (!goal) return toolError('There is no goal.', 'No goal');
      // Budgets hold: the model may set one that is unset or tighten one, never loosen one.
      const loosened = (Object.keys(budget) as (keyof typeof budget)[]).filter((key) => {
        const current = goal.budget[key];
        const wanted = budget[key];
        return current !== null && wanted !== undefined && wanted > current;
      });
      if (loosened.length > 0)
        return toolError(
          `A budget can only be set or lowered, not raised (${loosened.join(', ')}); ask the user to raise it.`,
          'Budget not raised',
        );
      book.setBudget(budget);
      return toolOk(goalForModel(book.view()), 'Budget set');
    },
  });
  const createGoal = defineTool({
    name: 'CreateGoal',
    description:
      'Start a goal the runtime keeps working on across turns until it is complete, blocked or paused. Give `check` (a shell command that exits 0 only when the objective is met) whenever the user names a way to verify it.',
    params: createGoalParams,
    effect: 'read-only',
    call({ objective, check, replace }) {
      // The check is the evidence: the model cannot swap it (or drop it) by replacing the goal.
      const existing = book.current();
      if (existing?.check && replace)
        return toolError(
          'The current goal has a completion check; only the user can replace it (/goal clear, then /goal).',
          'Goal not replaced',
        );
      try {
        book.create({ objective, check, replace });
      } catch (error) {
        if (error instanceof GoalError) return toolError(error.message, 'Goal not created');
        throw error;
      }
      return toolOk(goalForModel(book.view()), 'Goal created');
    },
  });
  return [getGoal, updateGoal, setBudget, createGoal];
}
