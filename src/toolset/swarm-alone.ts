import type { ToolDispatch } from '../kosong/index.js';

export const AGENT_SWARM_TOOL = 'AgentSwarm';

/**
 * Kimi Code's rule "AgentSwarm must be the only tool call in its response": a swarm runs alone,
 * so its subagents never race the parent's own calls of the same step. The calls of one response
 * share its ToolDispatch. An AgentSwarm call waits for the response's end before it may start and
 * is refused if the response holds any other call; a call that comes after an AgentSwarm in the
 * same response is refused at once; a side-effecting call that came before it is refused when the
 * response ends, before it runs. (A read made before the AgentSwarm call appeared has run.)
 */
export class SwarmAloneRule {
  private readonly namesByStep = new WeakMap<ToolDispatch, string[]>();

  /** Notes a call of the step; returns the refusal of a call that follows an AgentSwarm call. */
  register(dispatch: ToolDispatch, toolName: string): string | null {
    let names = this.namesByStep.get(dispatch);
    if (!names) {
      names = [];
      this.namesByStep.set(dispatch, names);
    }
    const swarmBefore = names.includes(AGENT_SWARM_TOOL);
    names.push(toolName);
    return swarmBefore && toolName !== AGENT_SWARM_TOOL ? refusalFor(names) : null;
  }

  /** After the response ended: the refusal of its calls if it held an AgentSwarm and anything else. */
  refusalAtEnd(dispatch: ToolDispatch): string | null {
    const names = this.namesByStep.get(dispatch) ?? [];
    return names.length > 1 && names.includes(AGENT_SWARM_TOOL) ? refusalFor(names) : null;
  }

  /** For an AgentSwarm call: once the response has ended, its refusal if it was not the only call. */
  async refusalOfSwarm(dispatch: ToolDispatch): Promise<string | null> {
    const clean = await dispatch.streamOutcome.catch(() => false);
    // A cut response is not run anyway (the runner says so); the rule judges whole responses.
    return clean ? this.refusalAtEnd(dispatch) : null;
  }
}

function refusalFor(names: readonly string[]): string {
  const swarms = names.filter((name) => name === AGENT_SWARM_TOOL).length;
  if (swarms > 1) {
    const others =
      swarms < names.length ? ' Do not combine AgentSwarm with other tools in one response either.' : '';
    return `AgentSwarm runs one swarm at a time: this response has ${swarms} AgentSwarm calls, and none of them ran. Call one AgentSwarm, wait for its result, then the next — or put all the work in the items of a single swarm.${others}`;
  }
  return 'AgentSwarm must be the only tool call in its response: none of the calls of this response ran. Call AgentSwarm alone, then the other tools after it has returned.';
}
