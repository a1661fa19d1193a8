import { CliSandbox } from './run-cli.js';
import { ScriptedLLMServer } from './scripted-llm-server.js';

/**
 * A root model that starts two foreground `coder` subagents in one step (they run at once), each
 * on a model of its own (`one`, `two`), and each runs a Shell command that needs approval: two
 * agents ask at the same time. Then each reports and the root answers `Both agents reported.`.
 */
export interface TwoAgentsScenario {
  root: ScriptedLLMServer;
  one: ScriptedLLMServer;
  two: ScriptedLLMServer;
  sandbox: CliSandbox;
  close(): Promise<void>;
}

export const AGENT_COMMANDS = { one: 'echo from-agent-one', two: 'echo from-agent-two' } as const;
/** The Agent calls' descriptions: what the queue names each agent by. */
export const AGENT_DESCRIPTIONS = { one: 'Agent one', two: 'Agent two' } as const;

/** A report long enough that the subagent is not asked for a fuller one. */
const report = (name: string) =>
  `Report of ${name}: ${'Everything was checked carefully and it worked. '.repeat(5)}`;

/** `descriptions`: the Agent calls' descriptions (the model's text), AGENT_DESCRIPTIONS by default. */
export async function twoAgentsScenario(
  descriptions: Record<'one' | 'two', string> = AGENT_DESCRIPTIONS,
): Promise<TwoAgentsScenario> {
  const worker = (name: 'one' | 'two') =>
    ScriptedLLMServer.start([
      { toolCalls: [{ id: `${name}-shell`, name: 'Shell', args: { command: AGENT_COMMANDS[name] } }] },
      { text: report(name) },
    ]);
  const one = await worker('one');
  const two = await worker('two');
  const agentCall = (name: 'one' | 'two') => ({
    id: `call-${name}`,
    name: 'Agent',
    args: {
      description: descriptions[name],
      prompt: `Run the command of agent ${name}.`,
      subagent_type: 'coder',
      model: name,
    },
  });
  const root = await ScriptedLLMServer.start([
    { toolCalls: [agentCall('one'), agentCall('two')] },
    { text: 'Both agents reported.' },
  ]);
  const provider = (name: string, server: ScriptedLLMServer) =>
    [
      `[providers.${name}p]`,
      'type = "openai_legacy"',
      `base_url = "${server.baseUrl}"`,
      'api_key = "k"',
      `[models.${name}]`,
      `provider = "${name}p"`,
      `model = "${name}-model"`,
      'max_context_size = 100000',
    ].join('\n');
  const sandbox = await CliSandbox.create({
    baseUrl: root.baseUrl,
    extraToml: [provider('one', one), provider('two', two)].join('\n'),
  });
  return {
    root,
    one,
    two,
    sandbox,
    async close() {
      await root.close();
      await one.close();
      await two.close();
      await sandbox.remove();
    },
  };
}
