import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openDispatch } from '../../toolset/test-support/dispatch.js';
import { commandEnvironment, findBash } from '../shell/shell-environment.js';
import type { BackgroundTaskManager } from './background-task-manager.js';
import {
  briefOf,
  callTool,
  makeTempDir,
  openManager,
  outputText,
  planModeSwitch,
  removeDir,
  toolsetWith,
} from './test-support/task-harness.js';
import { WaitFor, withProgress } from './wait-for.js';

let dir: string;
let manager: BackgroundTaskManager;
const bash = findBash(process.env, []) as string;

beforeEach(async () => {
  dir = await makeTempDir('kimi-ts-wait-for-');
  manager = await openManager(join(dir, 'session'));
});
afterEach(async () => {
  await manager.shutdown();
  await removeDir(dir);
});

function startBash(command: string) {
  return manager.startBash({
    command,
    description: `run ${command}`,
    timeoutS: null,
    cwd: dir,
    env: commandEnvironment(process.env, bash, []),
    shellPath: bash,
  });
}

/** An agent task (as a background subagent runs) that runs until released. */
async function gatedAgent(agentId: string) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const view = await manager.startAgent({
    description: 'gated agent',
    metadata: { agent_id: agentId, subagent_type: 'coder' },
    run: async (ctx) => {
      await gate;
      await ctx.writeOutput('agent report\n');
    },
  });
  return { id: view.spec.id, release };
}

function waitForToolset(role: 'root' | 'subagent' = 'root') {
  return toolsetWith([WaitFor], { backgroundTasks: manager, role, planMode: planModeSwitch() });
}

describe('WaitFor', () => {
  it('returns a finished task at once, with its output', async () => {
    const task = await startBash('echo done-here');
    await manager.wait(task.spec.id, 10_000);
    const result = await callTool(await waitForToolset(), 'WaitFor', { task_id: task.spec.id, timeout: 600 });
    const text = outputText(result);
    expect(result.return_value.is_error).toBe(false);
    expect(text).toMatch(/^wait_status: completed\n/);
    expect(text).toContain('status: completed');
    expect(text.endsWith('[output]\ndone-here')).toBe(true);
  });

  it('waits for a running task to finish', async () => {
    const agent = await gatedAgent('a0badc0de');
    const toolset = await waitForToolset();
    const pending = callTool(toolset, 'WaitFor', { task_id: agent.id, timeout: 60 });
    agent.release();
    const text = outputText(await pending);
    expect(text).toMatch(/^wait_status: completed\n/);
    expect(text).toContain('agent report');
  });

  it('finds a background agent by its agent id', async () => {
    const agent = await gatedAgent('a12345678');
    const toolset = await waitForToolset();
    const pending = callTool(toolset, 'WaitFor', { task_id: 'a12345678', timeout: 60 });
    agent.release();
    const text = outputText(await pending);
    expect(text).toContain(`task_id: ${agent.id}`);
    expect(text).toContain('status: completed');
  });

  it('a timeout is not an error: it gives the current status', async () => {
    const agent = await gatedAgent('a00000001');
    const result = await callTool(await waitForToolset(), 'WaitFor', { task_id: agent.id, timeout: 0.05 });
    const text = outputText(result);
    expect(result.return_value.is_error).toBe(false);
    expect(text).toMatch(/^wait_status: timed_out\n/);
    expect(text).toContain('status: running');
    expect(manager.get(agent.id)?.runtime.status).toBe('running');
    agent.release();
  });

  it('clamps a timeout above 600 s and says so', async () => {
    const task = await startBash('true');
    await manager.wait(task.spec.id, 10_000);
    const text = outputText(
      await callTool(await waitForToolset(), 'WaitFor', { task_id: task.spec.id, timeout: 86_400 }),
    );
    expect(text).toContain('timeout_ms: 600000');
    expect(text).toContain('above the 600s ceiling');
  });

  it('an unknown id is a clear tool error', async () => {
    const result = await callTool(await waitForToolset(), 'WaitFor', {
      task_id: 'bash-deadbeef',
      timeout: 5,
    });
    expect(result.return_value.is_error).toBe(true);
    expect(briefOf(result)).toBe('Task not found');
    expect(result.return_value.message).toContain('"bash-deadbeef"');
  });

  it.each([{ timeout: 0 }, { timeout: -1 }, {}])('rejects %j', async (args) => {
    const result = await callTool(await waitForToolset(), 'WaitFor', args);
    expect(result.return_value.is_error).toBe(true);
  });

  it('a hostile timeout as the model writes it (1e999 is Infinity to JSON.parse) is refused or clamped', async () => {
    const task = await startBash('true');
    await manager.wait(task.spec.id, 10_000);
    const toolset = await waitForToolset();
    const infinite = await callTool(toolset, 'WaitFor', `{"task_id":"${task.spec.id}","timeout":1e999}`);
    if (!infinite.return_value.is_error) expect(outputText(infinite)).toContain('timeout_ms: 600000');
    const tiny = await callTool(toolset, 'WaitFor', `{"task_id":"${task.spec.id}","timeout":1e-300}`);
    expect(outputText(tiny)).toMatch(/^wait_status: completed\n/);
  });

  it("another session's task id, or a path, is not found here", async () => {
    const toolset = await waitForToolset();
    for (const task_id of ['../other-session/tasks/bash-12345678', 'bash-12345678/../../x', '__proto__']) {
      const result = await callTool(toolset, 'WaitFor', { task_id, timeout: 1 });
      expect(result.return_value.is_error).toBe(true);
      expect(briefOf(result)).toBe('Task not found');
    }
  });

  it('without a task id returns at once when nothing runs, else at the first task to finish', async () => {
    const toolset = await waitForToolset();
    expect(outputText(await callTool(toolset, 'WaitFor', { timeout: 600 }))).toMatch(
      /^wait_status: no_tasks\n/,
    );
    const slow = await gatedAgent('a00000002');
    const fast = await gatedAgent('a00000003');
    const pending = callTool(toolset, 'WaitFor', { timeout: 600 });
    fast.release();
    const text = outputText(await pending);
    expect(text).toContain(`task_id: ${fast.id}`);
    expect(text).toContain('[still_running]');
    expect(text).toContain(slow.id);
    slow.release();
  });

  it('the turn being cancelled ends the wait, leaving the task running', async () => {
    const agent = await gatedAgent('a00000004');
    const toolset = await waitForToolset();
    const { dispatch, abort } = openDispatch();
    const pending = callTool(toolset, 'WaitFor', { task_id: agent.id, timeout: 600 }, dispatch);
    abort(new Error('cancelled'));
    const result = await pending;
    expect(result.return_value.is_error).toBe(true);
    expect(manager.get(agent.id)?.runtime.status).toBe('running');
    agent.release();
    expect((await manager.wait(agent.id, 10_000)).runtime.status).toBe('completed');
  });

  it('is refused to subagents', async () => {
    const result = await callTool(await waitForToolset('subagent'), 'WaitFor', { timeout: 1 });
    expect(briefOf(result)).toBe('Background task unavailable');
  });
});

describe('withProgress', () => {
  it('tells front ends every 10 s how long the wait has gone on, and stops with it', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    try {
      const reports: string[] = [];
      let finish!: (value: string) => void;
      const waiting = withProgress(
        (text) => reports.push(text),
        Date.now(),
        600_000,
        () => new Promise<string>((resolve) => (finish = resolve)),
      );
      vi.advanceTimersByTime(25_000);
      expect(reports).toEqual(['still waiting: 10s of 600s\n', 'still waiting: 20s of 600s\n']);
      finish('done');
      expect(await waiting).toBe('done');
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
