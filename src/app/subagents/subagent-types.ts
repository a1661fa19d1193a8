import { type AgentSpec, loadAgentSpec } from '../agent-spec.js';

/** A kind of subagent the Agent tool may launch: an entry of the root spec's `subagents:` map. */
export interface SubagentType {
  name: string;
  description: string;
  whenToUse: string;
  /** The type's own agent spec (its tools, system prompt and arguments, default model). */
  spec: AgentSpec;
}

/** Loads the agent spec of every subagent type the root spec names. */
export async function loadSubagentTypes(subagents: AgentSpec['subagents']): Promise<SubagentType[]> {
  return Promise.all(
    Object.entries(subagents).map(async ([name, entry]) => {
      const spec = await loadAgentSpec(entry.path);
      return { name, description: entry.description, whenToUse: spec.whenToUse, spec };
    }),
  );
}
