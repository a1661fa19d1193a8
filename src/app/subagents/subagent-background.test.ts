import { afterEach, describe, expect, it } from 'vitest';
import { extractText } from '../../kosong/message.js';
import {
  callTool,
  longReport,
  ScriptedSession,
  say,
  toolResultOf,
} from './test-support/scripted-root-session.js';

let fixture: ScriptedSession | null = null;

afterEach(async () => {
  await fixture?.close();
  fixture = null;
});

function field(output: string, name: string): string {
  const line = output.split('\n').find((l) => l.startsWith(`${name}: `));
  if (!line) throw new Error(`no ${name} line in:\n${output}`);
  return line.slice(name.length + 2);
}

describe('Agent tool, background', () => {
  it('starts a background task whose report reaches the task output and the model', async () => {
    const report = longReport('the background job');
    fixture = await ScriptedSession.open({
      // The subagent has a model of its own, so its steps do not interleave with the root's.
      models: { worker: [callTool('sub-1', 'Glob', { pattern: '*' }), say(report)] },
      scripts: [
        callTool('root-1', 'Agent', {
          description: 'Background job',
          prompt: 'Look around in the background.',
          subagent_type: 'explore',
          model: 'worker',
          run_in_background: true,
        }),
        say('started it'),
      ],
    });
    const { seen } = await fixture.runTurn('go');
    const result = toolResultOf(seen, 'root-1');
    expect(result).toMatchObject({ is_error: false, message: 'Background task started.' });
    const taskId = field(result.output, 'task_id');
    const agentId = field(result.output, 'agent_id');
    expect(taskId).toMatch(/^agent-[0-9a-z]{8}$/);
    expect(result.output).toContain('kind: agent\n');
    expect(field(result.output, 'actual_subagent_type')).toBe('explore');
    expect(field(result.output, 'automatic_notification')).toBe('true');
    expect(field(result.output, 'resume_hint')).toContain(`Agent(resume="${agentId}"`);

    const manager = fixture.deps.backgroundTasks!;
    const view = await manager.wait(taskId, 20_000);
    expect(view.runtime.status).toBe('completed');
    const tail = await manager.readOutput(taskId, 32 * 1024);
    expect(JSON.stringify(tail)).toContain(report.slice(0, 60));
    expect(await fixture.meta(agentId)).toMatchObject({
      status: 'idle',
      last_task_id: taskId,
      launch_spec: { model_override: 'worker', effective_model: 'worker' },
    });

    // The next root step sees the completion notification.
    fixture.provider.push(say('noted'));
    await fixture.runTurn('anything new?');
    const notified = fixture.session.context.history.some(
      (message) => message.role === 'user' && extractText(message).includes(taskId),
    );
    expect(notified).toBe(true);
  });

  it('refuses a second background subagent over the limit and removes the fresh instance', async () => {
    fixture = await ScriptedSession.open({
      yolo: true,
      config: { background: { max_running_tasks: 1 } },
      models: { worker: [callTool('sub-1', 'Shell', { command: 'sleep 30' })] },
      scripts: [
        callTool('root-1', 'Agent', {
          description: 'First',
          prompt: 'x',
          model: 'worker',
          run_in_background: true,
        }),
        callTool('root-2', 'Agent', { description: 'Second', prompt: 'y', run_in_background: true }),
        say('done'),
      ],
    });
    const { seen } = await fixture.runTurn('go');
    expect(toolResultOf(seen, 'root-1').is_error).toBe(false);
    const second = toolResultOf(seen, 'root-2');
    expect(second).toMatchObject({
      is_error: true,
      message: 'Too many background tasks are already running.',
    });
    expect(
      JSON.stringify(seen.find((m) => m.type === 'ToolResult' && m.payload.tool_call_id === 'root-2')),
    ).toContain('Background start failed');
    const firstAgent = field(toolResultOf(seen, 'root-1').output, 'agent_id');
    expect(await fixture.subagentIds()).toEqual([firstAgent]);
    expect((await fixture.meta(firstAgent)).status).toBe('running_background');

    // Resuming an instance that is still running is refused.
    fixture.provider.push(
      callTool('root-3', 'Agent', { description: 'Again', prompt: 'z', resume: firstAgent }),
      say('ok'),
    );
    const again = await fixture.runTurn('again');
    expect(toolResultOf(again.seen, 'root-3')).toMatchObject({
      is_error: true,
      message: `Agent instance ${firstAgent} is still running_background and cannot be resumed concurrently.`,
    });

    // Closing the session stops the task; the instance is marked killed.
    await fixture.session.close();
    expect((await fixture.meta(firstAgent)).status).toBe('killed');
  });
});
