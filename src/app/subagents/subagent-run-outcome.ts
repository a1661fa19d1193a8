import type { SubagentToolResult } from '../../tools/runtime.js';

/** Whose branch an isolated run works on: `kimi-ts/<id>/<index>` (a swarm and its item). */
export interface WorktreeOwner {
  id: string;
  index: number;
}

/** How one foreground run ended: the Agent tool's result, and what a swarm's report lists of it. */
export interface SubagentRunOutcome {
  /** Null when the run was refused before an instance existed. */
  agentId: string | null;
  status: 'completed' | 'failed';
  /** The subagent's final answer, when it completed. */
  answer: string | null;
  result: SubagentToolResult;
  /** Whether it ran in a worktree of its own. */
  isolated: boolean;
  /** The branch holding its commit; null when it changed nothing (or was not isolated). */
  branch: string | null;
  diffStat: string;
  /** The worktree could not be committed or removed cleanly. */
  worktreeError: string | null;
}

/** A run refused before it started. */
export function notStarted(result: SubagentToolResult): SubagentRunOutcome {
  return {
    agentId: null,
    status: 'failed',
    answer: null,
    result,
    isolated: false,
    branch: null,
    diffStat: '',
    worktreeError: null,
  };
}

/** The Agent tool's result with the worktree's branch and diff stat after it (isolated runs). */
export function withWorktree(outcome: SubagentRunOutcome): SubagentToolResult {
  if (!outcome.isolated) return outcome.result;
  const lines = [
    outcome.branch === null
      ? 'worktree: no changes (nothing committed, its branch deleted)'
      : `worktree_branch: ${outcome.branch} (committed; not merged)`,
  ];
  if (outcome.diffStat) lines.push('diff_stat:', outcome.diffStat);
  if (outcome.worktreeError) lines.push(`worktree_error: ${outcome.worktreeError}`);
  const { result } = outcome;
  return result.isError
    ? { ...result, message: `${result.message}\n${lines.join('\n')}` }
    : { ...result, output: `${result.output}\n\n${lines.join('\n')}` };
}
