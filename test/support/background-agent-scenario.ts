import { gate } from './loopback-server.js';
import { CliSandbox } from './run-cli.js';
import { ScriptedLLMServer } from './scripted-llm-server.js';

/**
 * A root model that starts a background `coder` subagent on a model of its own (`worker`), and that
 * subagent's script: a read-only step held until `releaseWorker()`, then `echo from-the-background`
 * through Shell (which needs approval), then its report. Releasing the worker after the root turn
 * has ended makes the approval request come between turns.
 */
export interface BackgroundAgentScenario {
  root: ScriptedLLMServer;
  worker: ScriptedLLMServer;
  sandbox: CliSandbox;
  releaseWorker(): void;
  /** The background task's id, from the Agent tool's result in the root model's second request. */
  taskId(): string;
  /** Scripts the root model's next turn: wait for the task, read its output, answer `Read it.`. */
  pushWaitForTask(): void;
  close(): Promise<void>;
}

export const BACKGROUND_COMMAND = 'echo from-the-background';
export const BACKGROUND_REPORT = `Report: ran the command. ${'Everything was checked carefully and it worked. '.repeat(4)}`;

export async function backgroundAgentScenario(): Promise<BackgroundAgentScenario> {
  const held = gate();
  const worker = await ScriptedLLMServer.start([
    { toolCalls: [{ id: 'w1', name: 'Glob', args: { pattern: '*' } }], holdUntil: held.promise },
    { toolCalls: [{ id: 'w2', name: 'Shell', args: { command: BACKGROUND_COMMAND } }] },
    { text: BACKGROUND_REPORT },
  ]);
  const root = await ScriptedLLMServer.start([
    {
      toolCalls: [
        {
          id: 'r1',
          name: 'Agent',
          args: {
            description: 'Background command',
            prompt: 'Run the command.',
            subagent_type: 'coder',
            model: 'worker',
            run_in_background: true,
          },
        },
      ],
    },
    { text: 'Started it.' },
  ]);
  const sandbox = await CliSandbox.create({
    baseUrl: root.baseUrl,
    extraToml: [
      '[providers.workerp]',
      'type = "openai_legacy"',
      `base_url = "${worker.baseUrl}"`,
      'api_key = "k"',
      '[models.worker]',
      'provider = "workerp"',
      'model = "worker-model"',
      'max_context_size = 100000',
    ].join('\n'),
  });
  const taskId = (): string => {
    const id = /task_id: (agent-[0-9a-z]+)/.exec(JSON.stringify(root.requests[1]?.body))?.[1];
    if (!id) throw new Error('the Agent tool reported no task id');
    return id;
  };
  return {
    root,
    worker,
    sandbox,
    releaseWorker: () => held.open(),
    taskId,
    pushWaitForTask: () =>
      root.push(
        {
          toolCalls: [
            { id: 'r2', name: 'TaskOutput', args: { task_id: taskId(), block: true, timeout: 60 } },
          ],
        },
        { text: 'Read it.' },
      ),
    async close() {
      await root.close();
      await worker.close();
      await sandbox.remove();
    },
  };
}
