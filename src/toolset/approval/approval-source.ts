import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Where an approval request comes from: a foreground turn (of the root agent, or of a foreground
 * subagent run, which then carries its agent id and type) or a background agent task. Requests are
 * cancelled by source when that turn, run or task ends.
 */
export interface ApprovalSource {
  kind: 'foreground_turn' | 'background_agent';
  id: string;
  agent_id?: string | null | undefined;
  subagent_type?: string | null | undefined;
  description?: string | null | undefined;
  /** The parent's tool call (Agent, AgentSwarm) that started the agent; shared by a swarm's agents. */
  parent_tool_call_id?: string | null | undefined;
  /**
   * The swarm the agent runs in (kimi-ts made the id when the AgentSwarm call started; the model
   * cannot pick it, unlike a tool call id): what "approve for all agents of this swarm" covers.
   */
  swarm_id?: string | null | undefined;
}

const storage = new AsyncLocalStorage<ApprovalSource>();

/** Runs `fn` (a turn, a subagent run, a background task) with `source` as the origin of its approval requests. */
export function runWithApprovalSource<T>(source: ApprovalSource, fn: () => T): T {
  return storage.run(source, fn);
}

export function currentApprovalSource(): ApprovalSource | undefined {
  return storage.getStore();
}

/** Subagents get a firmer rejection text (do not retry, do not work around). */
export function isSubagentSource(source: ApprovalSource | undefined): boolean {
  return source?.agent_id != null && source.agent_id !== '';
}
