import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Approval } from '../../toolset/approval/approval.js';
import { openDispatch } from '../../toolset/test-support/dispatch.js';
import { toolErrorKind } from '../../toolset/tool-errors.js';
import type { AgentRole } from '../runtime.js';
import { commandEnvironment, findBash } from '../shell/shell-environment.js';
import type { BackgroundTaskManager } from './background-task-manager.js';
import { TaskList } from './task-list.js';
import { TASK_OUTPUT_PREVIEW_BYTES, TaskOutput } from './task-output.js';
import { TaskStop } from './task-stop.js';
import {
  answerApprovals,
  briefOf,
  callTool,
  makeTempDir,
  openManager,
  outputText,
  planModeSwitch,
  removeDir,
  toolsetWith,
} from './test-support/task-harness.js';

let dir: string;
let manager: BackgroundTaskManager;
const bash = findBash(process.env, []) as string;

beforeEach(async () => {
  dir = await makeTempDir('kimi-ts-task-tools-');
  manager = await openManager(join(dir, 'session'));
});
afterEach(async () => {
  await manager.shutdown();
  await removeDir(dir);
});

function startBash(command: string, description = `run ${command}`) {
  return manager.startBash({
    command,
    description,
    timeoutS: null,
    cwd: dir,
    env: commandEnvironment(process.env, bash, []),
    shellPath: bash,
  });
}

function taskToolset(options: { role?: AgentRole; approval?: Approval; planActive?: boolean } = {}) {
  return toolsetWith(
    [TaskList, TaskOutput, TaskStop],
    {
      backgroundTasks: manager,
      role: options.role ?? 'root',
      planMode: planModeSwitch(options.planActive ?? false),
    },
    options.approval,
  );
}

/** An agent task that runs until the returned function is called. */
/** A running task that has written "working" (its first output is in before the test looks) and waits for `release`. */
async function gatedTask(description: string) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let wroteFirst!: () => void;
  const firstWritten = new Promise<void>((resolve) => {
    wroteFirst = resolve;
  });
  const view = await manager.startAgent({
    description,
    run: async (ctx) => {
      await ctx.writeOutput('working\n');
      wroteFirst();
      await gate;
      await ctx.writeOutput('finished\n');
    },
  });
  await firstWritten;
  return { id: view.spec.id, release };
}

describe('TaskList', () => {
  it('says when there are no tasks', async () => {
    const toolset = await taskToolset();
    const result = await callTool(toolset, 'TaskList', {});
    expect(outputText(result)).toBe('active_background_tasks: 0\n[no tasks]');
    expect(result.return_value.message).toBe('Task list retrieved.');
  });

  it('lists active tasks by default and all tasks on request, newest first, within the limit', async () => {
    const finished = await startBash('exit 0', 'finished one');
    await manager.wait(finished.spec.id, 10_000);
    const first = await startBash('sleep 300', 'first sleeper');
    const second = await startBash('sleep 300', 'second sleeper');
    const toolset = await taskToolset();

    const active = outputText(await callTool(toolset, 'TaskList', {}));
    expect(active).toBe(
      [
        'active_background_tasks: 2',
        `[1]\ntask_id: ${second.spec.id}\nkind: bash\nstatus: running\ndescription: second sleeper\ncommand: sleep 300`,
        `[2]\ntask_id: ${first.spec.id}\nkind: bash\nstatus: running\ndescription: first sleeper\ncommand: sleep 300`,
      ].join('\n\n'),
    );

    const all = await callTool(toolset, 'TaskList', { active_only: false });
    expect(outputText(all)).toMatch(/^background_tasks: 3\n/);
    expect(outputText(all)).toContain('description: finished one\ncommand: exit 0\nexit_code: 0');
    expect(all.return_value.display).toHaveLength(3);

    const limited = await callTool(toolset, 'TaskList', { active_only: false, limit: 1 });
    expect(outputText(limited)).toMatch(/^background_tasks: 1\n\n\[1\]\ntask_id: bash-/);
  });

  it.each([{ limit: 0 }, { limit: 101 }])('rejects %j', async (args) => {
    const toolset = await taskToolset();
    expect(toolErrorKind((await callTool(toolset, 'TaskList', args)).return_value)).toBe('validate');
  });

  it('is refused to subagents', async () => {
    const toolset = await taskToolset({ role: 'subagent' });
    for (const [name, args] of [
      ['TaskList', {}],
      ['TaskOutput', { task_id: 'bash-00000000' }],
      ['TaskStop', { task_id: 'bash-00000000' }],
    ] as const) {
      const result = await callTool(toolset, name, args);
      expect(result.return_value.is_error).toBe(true);
      expect(briefOf(result)).toBe('Background task unavailable');
    }
  });
});

describe('TaskOutput', () => {
  it('returns a snapshot of a running task without waiting', async () => {
    const { id, release } = await gatedTask('gated work');
    const toolset = await taskToolset();
    const result = await callTool(toolset, 'TaskOutput', { task_id: id });
    const text = outputText(result);
    expect(result.return_value.message).toBe('Task snapshot retrieved.');
    expect(text).toMatch(/^retrieval_status: not_ready\n/);
    expect(text).toContain(`task_id: ${id}\nkind: agent\nstatus: running\ndescription: gated work\n`);
    expect(text).toContain('interrupted: false\ntimed_out: false\nterminal_reason: none\n');
    expect(text.endsWith('[output]\nworking')).toBe(true);
    expect(result.return_value.display).toEqual([
      { type: 'background_task', task_id: id, kind: 'agent', status: 'running', description: 'gated work' },
    ]);
    release();
  });

  it('with block=true waits for the task to end, then returns its full state', async () => {
    const { id, release } = await gatedTask('gated work');
    const toolset = await taskToolset();
    let answered = false;
    const pending = callTool(toolset, 'TaskOutput', { task_id: id, block: true, timeout: 3600 }).then((r) => {
      answered = true;
      return r;
    });
    await manager.wait(id, 0);
    expect(answered).toBe(false);
    release();
    const result = await pending;
    const text = outputText(result);
    expect(result.return_value.message).toBe('Task output retrieved.');
    expect(text).toMatch(/^retrieval_status: success\n/);
    expect(text).toContain('status: completed\n');
    expect(text).toContain('terminal_reason: completed\n');
    expect(text.endsWith('[output]\nworking\nfinished')).toBe(true);
  });

  it('with block=true and a zero timeout reports a timeout for a running task', async () => {
    const { id, release } = await gatedTask('gated work');
    const toolset = await taskToolset();
    const result = await callTool(toolset, 'TaskOutput', { task_id: id, block: true, timeout: 0 });
    expect(outputText(result)).toMatch(/^retrieval_status: timeout\n/);
    expect(result.return_value.message).toBe('Task output retrieved.');
    release();
  });

  it('a blocking wait ends when the call is cancelled', async () => {
    const { id, release } = await gatedTask('gated work');
    const toolset = await taskToolset();
    const { dispatch, endStream, abort } = openDispatch();
    endStream(true);
    const pending = callTool(toolset, 'TaskOutput', { task_id: id, block: true }, dispatch);
    abort(new Error('cancelled'));
    expect(toolErrorKind((await pending).return_value)).toBe('cancelled');
    release();
  });

  it('shows the exit code, and the output file for ReadFile', async () => {
    const view = await startBash('echo nope; exit 4');
    await manager.wait(view.spec.id, 10_000);
    const toolset = await taskToolset();
    const text = outputText(await callTool(toolset, 'TaskOutput', { task_id: view.spec.id }));
    expect(text).toContain('status: failed\n');
    expect(text).toContain('terminal_reason: failed\nexit_code: 4\n');
    expect(text).toContain(
      `\noutput_path: ${view.outputPath}\noutput_size_bytes: 5\noutput_preview_bytes: 5\n`,
    );
    expect(text).toContain(
      'output_truncated: false\n\nfull_output_available: true\nfull_output_tool: ReadFile\n',
    );
    expect(text).toContain(
      `full_output_hint: Use ReadFile(path="${view.outputPath}", line_offset=1, n_lines=300)`,
    );
  });

  it.each([
    [TASK_OUTPUT_PREVIEW_BYTES, false],
    [TASK_OUTPUT_PREVIEW_BYTES + 1, true],
  ])('with %i bytes of output, truncated is %s', async (size, truncated) => {
    const view = await startBash(`head -c ${size - 1} /dev/zero | tr '\\0' a; echo`);
    await manager.wait(view.spec.id, 10_000);
    const toolset = await taskToolset();
    const text = outputText(await callTool(toolset, 'TaskOutput', { task_id: view.spec.id }));
    expect(text).toContain(`output_size_bytes: ${size}\n`);
    expect(text).toContain(`output_preview_bytes: ${TASK_OUTPUT_PREVIEW_BYTES}\n`);
    expect(text).toContain(`output_truncated: ${truncated}\n`);
    const shown = text.slice(text.indexOf('[output]\n') + '[output]\n'.length);
    if (truncated) {
      expect(shown.startsWith(`[Truncated. Full output: ${view.outputPath}]\n\n`)).toBe(true);
      expect(shown.endsWith(`\n${'a'.repeat(TASK_OUTPUT_PREVIEW_BYTES - 1)}`)).toBe(true);
    } else {
      expect(shown).toBe('a'.repeat(size - 1));
    }
  });

  it('reports an unknown task', async () => {
    const toolset = await taskToolset();
    const result = await callTool(toolset, 'TaskOutput', { task_id: 'bash-00000000' });
    expect(result.return_value.message).toBe('Task not found: bash-00000000');
    expect(briefOf(result)).toBe('Task not found');
  });

  it.each([{ timeout: -1 }, { timeout: 3601 }])('rejects %j', async (args) => {
    const toolset = await taskToolset();
    const result = await callTool(toolset, 'TaskOutput', { task_id: 'bash-00000000', ...args });
    expect(toolErrorKind(result.return_value)).toBe('validate');
  });
});

describe('TaskStop', () => {
  it('asks for approval with the task, then stops it', async () => {
    const approval = new Approval();
    const asked = answerApprovals(approval.runtime, { response: 'approve' });
    const view = await startBash('sleep 300', 'long sleep');
    const toolset = await taskToolset({ approval });
    const result = await callTool(toolset, 'TaskStop', { task_id: view.spec.id, reason: 'not needed' });

    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      sender: 'TaskStop',
      action: 'stop background task',
      description: `Stop background task \`${view.spec.id}\``,
      display: [
        {
          type: 'background_task',
          task_id: view.spec.id,
          kind: 'bash',
          status: 'running',
          description: 'long sleep',
        },
      ],
    });
    expect(result.return_value.message).toBe('Task stop requested.');
    expect(outputText(result)).toContain('status: killed\n');
    expect(outputText(result)).toContain('reason: not needed');
    expect(manager.get(view.spec.id)?.runtime.status).toBe('killed');
  });

  it('leaves the task running when the user rejects', async () => {
    const approval = new Approval();
    answerApprovals(approval.runtime, { response: 'reject' });
    const view = await startBash('sleep 300');
    const toolset = await taskToolset({ approval });
    const result = await callTool(toolset, 'TaskStop', { task_id: view.spec.id });
    expect(toolErrorKind(result.return_value)).toBe('rejected');
    expect(manager.get(view.spec.id)?.runtime.status).toBe('running');
  });

  it('uses the default reason', async () => {
    const view = await startBash('sleep 300');
    const toolset = await taskToolset();
    await callTool(toolset, 'TaskStop', { task_id: view.spec.id });
    expect(manager.get(view.spec.id)?.runtime.failure_reason).toBe('Stopped by TaskStop');
  });

  it('is blocked in plan mode, without asking', async () => {
    const approval = new Approval();
    const asked = answerApprovals(approval.runtime, { response: 'approve' });
    const view = await startBash('sleep 300');
    const toolset = await taskToolset({ approval, planActive: true });
    const result = await callTool(toolset, 'TaskStop', { task_id: view.spec.id });
    expect(result.return_value.message).toBe('TaskStop is not available in plan mode.');
    expect(briefOf(result)).toBe('Blocked in plan mode');
    expect(asked).toHaveLength(0);
    expect(manager.get(view.spec.id)?.runtime.status).toBe('running');
  });

  it('leaves a finished task untouched, without asking', async () => {
    const approval = new Approval();
    const asked = answerApprovals(approval.runtime, { response: 'approve' });
    const view = await startBash('exit 0');
    await manager.wait(view.spec.id, 10_000);
    const toolset = await taskToolset({ approval });
    const result = await callTool(toolset, 'TaskStop', { task_id: view.spec.id });
    expect(result.return_value.is_error).toBe(false);
    expect(result.return_value.message).toContain('already finished');
    expect(manager.get(view.spec.id)?.runtime).toMatchObject({ status: 'completed', failure_reason: null });
    expect(asked).toHaveLength(0);
  });

  it('reports an unknown task', async () => {
    const toolset = await taskToolset();
    const result = await callTool(toolset, 'TaskStop', { task_id: 'bash-00000000' });
    expect(result.return_value.message).toBe('Task not found: bash-00000000');
  });
});
