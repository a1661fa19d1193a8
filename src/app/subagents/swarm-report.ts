import type { SubagentRunOutcome } from './subagent-run-outcome.js';

/** One swarm item as the report lists it. */
export interface SwarmEntry {
  index: number;
  /** The item that filled the template; absent for a resumed agent. */
  item: string | null;
  resumedAgentId: string | null;
  /** Null: never started. */
  outcome: SubagentRunOutcome | null;
  /** Why it never started (a cancel, the goal's budget spent). */
  notStarted: string | null;
}

function escapeAttribute(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('"', '&quot;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');
}

function outcomeOf(entry: SwarmEntry): 'completed' | 'failed' | 'not_started' {
  return entry.outcome?.status ?? 'not_started';
}

/** How many of each outcome, e.g. `completed: 2, failed: 1`. */
export function swarmSummary(entries: readonly SwarmEntry[]): string {
  const counts = new Map<string, number>();
  for (const entry of entries) counts.set(outcomeOf(entry), (counts.get(outcomeOf(entry)) ?? 0) + 1);
  return [...counts].map(([outcome, count]) => `${outcome}: ${count}`).join(', ');
}

/**
 * The one report the parent gets for a whole swarm (Kimi Code's `<agent_swarm_result>` shape): per
 * item its agent id, outcome, final answer or error, and for worktrees the branch and diff stat.
 */
export function renderSwarmReport(
  swarmId: string,
  concurrency: number,
  entries: readonly SwarmEntry[],
): string {
  const lines = [
    `<agent_swarm_result swarm_id="${swarmId}" max_concurrency="${concurrency}">`,
    `<summary>${swarmSummary(entries)}</summary>`,
  ];
  if (entries.some((e) => outcomeOf(e) !== 'completed' && e.outcome?.agentId))
    lines.push(
      '<resume_hint>Call AgentSwarm with resume_agent_ids using the agent_id values in this result to continue unfinished work.</resume_hint>',
    );
  for (const entry of entries) {
    const { outcome } = entry;
    const attributes = [`index="${entry.index}"`];
    if (outcome?.agentId) attributes.push(`agent_id="${outcome.agentId}"`);
    if (entry.resumedAgentId) attributes.push('mode="resume"');
    if (entry.item !== null) attributes.push(`item="${escapeAttribute(entry.item)}"`);
    attributes.push(`outcome="${outcomeOf(entry)}"`);
    if (outcome?.branch) attributes.push(`branch="${outcome.branch}"`);
    lines.push(`<subagent ${attributes.join(' ')}>`);
    if (outcome?.isolated && outcome.branch === null) lines.push('<worktree>no changes</worktree>');
    if (outcome?.diffStat) lines.push('<diff_stat>', outcome.diffStat, '</diff_stat>');
    if (outcome?.worktreeError) lines.push(`<worktree_error>${outcome.worktreeError}</worktree_error>`);
    if (outcome === null) lines.push(`<error>${entry.notStarted ?? 'Not started.'}</error>`);
    else if (outcome.status === 'completed') lines.push('<answer>', outcome.answer ?? '', '</answer>');
    else lines.push('<error>', outcome.result.message, '</error>');
    lines.push('</subagent>');
  }
  if (entries.some((e) => e.outcome?.branch))
    lines.push(
      '<merge_hint>Each branch holds one commit of its subagent and nothing is merged. Look at a branch with git (git diff HEAD...BRANCH) before merging it; the person can merge one with /swarm merge BRANCH.</merge_hint>',
    );
  lines.push('</agent_swarm_result>');
  return lines.join('\n');
}
