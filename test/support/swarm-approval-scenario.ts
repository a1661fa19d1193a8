import type { ScriptedLLMServer, ScriptedTurn } from './scripted-llm-server.js';

/**
 * A root model that runs one swarm of three items, then the same command itself, then a second
 * swarm of two items; every subagent runs the same command (SWARM_COMMAND), which needs approval.
 * An approval given for the first swarm must cover its agents only: the main agent's and the
 * second swarm's identical requests are still asked.
 */
export const SWARM_COMMAND = 'echo same-for-everyone';
export const FIRST_SWARM_CALL = 'swarm-first';
export const SECOND_SWARM_CALL = 'swarm-second';
export const MAIN_SHELL_CALL = 'main-shell';

interface ApiMessage {
  role: string;
  content?: unknown;
  tool_call_id?: string;
}

const textOf = (m: ApiMessage | undefined): string =>
  m === undefined ? '' : typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? '');

const REPORT = `Done. ${'The command ran as asked and its output was checked afterwards. '.repeat(5)}`;

const swarm = (id: string, items: string[]): ScriptedTurn => ({
  toolCalls: [
    {
      id,
      name: 'AgentSwarm',
      args: {
        description: id === FIRST_SWARM_CALL ? 'First swarm' : 'Second swarm',
        prompt_template: 'Item {{item}}: run the command.',
        items,
        isolation: 'none',
      },
    },
  ],
});

export function scriptSwarmApprovals(server: ScriptedLLMServer): void {
  server.answerBy((body): ScriptedTurn => {
    const messages = (body as { messages: ApiMessage[] }).messages;
    const first = textOf(messages.find((m) => m.role === 'user'));
    const item = /Item (\w+): run the command/.exec(first)?.[1];
    if (item !== undefined) {
      return messages.at(-1)?.role === 'user'
        ? { toolCalls: [{ id: `sh-${item}`, name: 'Shell', args: { command: SWARM_COMMAND } }] }
        : { text: REPORT };
    }
    const last = messages.at(-1);
    if (last?.role !== 'tool') return swarm(FIRST_SWARM_CALL, ['a', 'b', 'c']);
    if (last.tool_call_id === FIRST_SWARM_CALL)
      return { toolCalls: [{ id: MAIN_SHELL_CALL, name: 'Shell', args: { command: SWARM_COMMAND } }] };
    if (last.tool_call_id === MAIN_SHELL_CALL) return swarm(SECOND_SWARM_CALL, ['d', 'e']);
    return { text: 'All swarms are done.' };
  });
}

/** The subagents whose Shell call ran (their model was sent the command's output), by item. */
export function itemsThatRan(server: ScriptedLLMServer): string[] {
  const ran = new Set<string>();
  for (const request of server.requests) {
    const messages = (request.body as { messages: ApiMessage[] }).messages;
    const item = /Item (\w+): run the command/.exec(textOf(messages.find((m) => m.role === 'user')))?.[1];
    const result = messages.find((m) => m.role === 'tool' && m.tool_call_id === `sh-${item}`);
    if (item && result && textOf(result).includes('same-for-everyone') && !/reject/i.test(textOf(result)))
      ran.add(item);
  }
  return [...ran].sort();
}
