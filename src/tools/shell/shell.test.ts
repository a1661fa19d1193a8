import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Approval } from '../../toolset/approval/approval.js';
import { openDispatch } from '../../toolset/test-support/dispatch.js';
import { toolErrorKind } from '../../toolset/tool-errors.js';
import type { BackgroundTaskManager } from '../background/background-task-manager.js';
import {
  answerApprovals,
  briefOf,
  callTool,
  makeTempDir,
  openManager,
  outputText,
  readPids,
  removeDir,
  toolsetWith,
  waitForFile,
} from '../background/test-support/task-harness.js';
import type { AgentRole } from '../runtime.js';
import { isProcessAlive } from './process-group.js';
import { Shell } from './shell.js';

let dir: string;
let workDir: string;
let manager: BackgroundTaskManager;

beforeEach(async () => {
  dir = await makeTempDir('kimi-ts-shell-');
  workDir = join(dir, 'work');
  const { mkdir } = await import('node:fs/promises');
  await mkdir(workDir);
  manager = await openManager(join(dir, 'session'));
});
afterEach(async () => {
  await manager.shutdown();
  await removeDir(dir);
});

function shellToolset(options: { approval?: Approval; role?: AgentRole; env?: Record<string, string> } = {}) {
  return toolsetWith(
    [Shell],
    {
      workDir,
      processEnv: { ...process.env, ...options.env },
      commandSandbox: null,
      backgroundTasks: manager,
      role: options.role ?? 'root',
    },
    options.approval,
  );
}

describe('Shell in the foreground', () => {
  it('runs the command in the work dir and reports success', async () => {
    const toolset = await shellToolset();
    const result = await callTool(toolset, 'Shell', { command: 'pwd' });
    expect(result.return_value.is_error).toBe(false);
    expect(result.return_value.message).toBe('Command executed successfully.');
    expect(outputText(result)).toBe(`${workDir}\n`);
  });

  it('interleaves stdout and stderr in the order they were written', async () => {
    const toolset = await shellToolset();
    const result = await callTool(toolset, 'Shell', {
      command: 'echo one; sleep 0.1; echo two >&2; sleep 0.1; echo three; printf tail >&2',
    });
    expect(outputText(result)).toBe('one\ntwo\nthree\ntail');
  });

  it('runs with stdin closed, the session env, SHELL and GIT_TERMINAL_PROMPT=0', async () => {
    const toolset = await shellToolset({ env: { KIMI_TS_TEST_VALUE: 'from-session' } });
    const result = await callTool(toolset, 'Shell', {
      command:
        'read line; echo "read=$?"; echo "$KIMI_TS_TEST_VALUE $GIT_TERMINAL_PROMPT"; basename "$SHELL"',
    });
    expect(outputText(result)).toBe('read=1\nfrom-session 0\nbash\n');
  });

  it('reports a non-zero exit with the code and the last output lines', async () => {
    const toolset = await shellToolset();
    const result = await callTool(toolset, 'Shell', {
      command: 'for i in 1 2 3 4 5 6 7; do echo line$i; done; exit 3',
    });
    expect(result.return_value.is_error).toBe(true);
    expect(result.return_value.message).toBe('Command failed with exit code: 3.');
    expect(briefOf(result)).toBe('Failed with exit code: 3\nline3\nline4\nline5\nline6\nline7');
    expect(outputText(result)).toContain('line1\n');
  });

  it('refuses an empty command without asking', async () => {
    const approval = new Approval();
    const asked = answerApprovals(approval.runtime, { response: 'approve' });
    const toolset = await shellToolset({ approval });
    const result = await callTool(toolset, 'Shell', { command: '  ' });
    expect(result.return_value.message).toBe('Command cannot be empty.');
    expect(briefOf(result)).toBe('Empty command');
    expect(asked).toHaveLength(0);
  });

  it('cuts long lines and says the output was truncated', async () => {
    const toolset = await shellToolset();
    const result = await callTool(toolset, 'Shell', { command: "head -c 2500 /dev/zero | tr '\\0' a; echo" });
    const text = outputText(result);
    expect(text).toHaveLength(2001);
    expect(text.endsWith('[...truncated]\n')).toBe(true);
    expect(result.return_value.message).toContain('Output is truncated');
  });
});

describe('Shell parameters', () => {
  it.each([
    [{ command: 'echo hi', timeout: 0 }, 'timeout'],
    [{ command: 'echo hi', timeout: 86_401, run_in_background: true, description: 'x' }, 'timeout'],
    [{ command: 'echo hi', timeout: 1.5 }, 'timeout'],
    [{ command: 'echo hi', run_in_background: true }, 'description'],
    [{ command: 'echo hi', run_in_background: true, description: '   ' }, 'description'],
    [{ command: 'curl x', sandbox: 'off' }, 'justification'],
    [{ command: 'curl x', sandbox: 'off', justification: '  ' }, 'justification'],
    [{ command: 'curl x', sandbox: 'maybe', justification: 'y' }, 'sandbox'],
  ])('rejects %j', async (args, field) => {
    const toolset = await shellToolset();
    const result = await callTool(toolset, 'Shell', args);
    expect(toolErrorKind(result.return_value)).toBe('validate');
    expect(result.return_value.message).toContain(field);
  });

  it('limits a foreground command to 300 seconds and points to run_in_background', async () => {
    const toolset = await shellToolset();
    const over = await callTool(toolset, 'Shell', { command: 'echo hi', timeout: 301 });
    expect(toolErrorKind(over.return_value)).toBe('validate');
    expect(over.return_value.message).toContain('foreground');
    expect(over.return_value.message).toContain('run_in_background');

    const atLimit = await callTool(toolset, 'Shell', { command: 'echo hi', timeout: 300 });
    expect(atLimit.return_value.is_error).toBe(false);
  });
});

describe('Shell approval', () => {
  it('asks with the command, and does not run it when rejected', async () => {
    const approval = new Approval();
    const asked = answerApprovals(approval.runtime, { response: 'reject' });
    const toolset = await shellToolset({ approval });
    const marker = join(workDir, 'ran');
    const result = await callTool(toolset, 'Shell', { command: `touch ${marker}` });
    expect(toolErrorKind(result.return_value)).toBe('rejected');
    expect(existsSync(marker)).toBe(false);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      sender: 'Shell',
      action: 'run command',
      description: `Run command \`touch ${marker}\``,
      display: [{ type: 'shell', language: 'bash', command: `touch ${marker}` }],
    });
  });

  it('asks a background command under its own action', async () => {
    const approval = new Approval();
    const asked = answerApprovals(approval.runtime, { response: 'approve' });
    const toolset = await shellToolset({ approval });
    const result = await callTool(toolset, 'Shell', {
      command: 'echo bg',
      run_in_background: true,
      description: 'echo in background',
    });
    expect(result.return_value.is_error).toBe(false);
    expect(asked[0]).toMatchObject({
      action: 'run background command',
      description: 'Run background command `echo bg`',
      display: [{ type: 'shell', language: 'bash', command: 'echo bg' }],
    });
  });
});

describe('Shell timeout and cancel kill the whole process tree', () => {
  it('kills the command and its grandchild on timeout', async () => {
    const toolset = await shellToolset();
    const result = await callTool(toolset, 'Shell', {
      command: 'sleep 300 & echo "pids $$ $!"; wait',
      timeout: 1,
    });
    expect(result.return_value.is_error).toBe(true);
    expect(result.return_value.message).toBe('Command killed by timeout (1s).');
    expect(briefOf(result)).toBe('Killed by timeout (1s)');
    const pids =
      outputText(result)
        .match(/pids (\d+) (\d+)/)
        ?.slice(1)
        .map(Number) ?? [];
    expect(pids).toHaveLength(2);
    expect(pids.some(isProcessAlive)).toBe(false);
  });

  it('kills the command and its grandchild when the call is cancelled', async () => {
    const toolset = await shellToolset();
    const pidFile = join(dir, 'pids');
    const { dispatch, endStream, abort } = openDispatch();
    endStream(true);
    const pending = callTool(
      toolset,
      'Shell',
      {
        command: `sleep 300 & echo $$ $! > ${pidFile}.tmp && mv ${pidFile}.tmp ${pidFile}; wait`,
        timeout: 300,
      },
      dispatch,
    );
    await waitForFile(pidFile);
    const pids = await readPids(pidFile);
    expect(pids.every(isProcessAlive)).toBe(true);

    abort(new Error('user pressed Ctrl-C'));
    const result = await pending;

    expect(toolErrorKind(result.return_value)).toBe('cancelled');
    expect(pids.some(isProcessAlive)).toBe(false);
  });
});

describe('Shell in the background', () => {
  it('starts a task and answers at once with its fields and hints', async () => {
    const toolset = await shellToolset();
    const result = await callTool(toolset, 'Shell', {
      command: 'echo started; exit 0',
      run_in_background: true,
      description: 'quick echo',
    });
    expect(result.return_value.is_error).toBe(false);
    expect(result.return_value.message).toBe('Background task started.');
    const text = outputText(result);
    const id = /^task_id: (bash-[0-9a-z]{8})$/m.exec(text)?.[1];
    expect(id).toBeDefined();
    expect(text).toContain('kind: bash\n');
    expect(text).toContain('description: quick echo\n');
    expect(text).toContain('command: echo started; exit 0\n');
    expect(text).toContain('automatic_notification: true\n');
    expect(text.match(/^next_step: /gm)).toHaveLength(3);
    expect(text).toMatch(/^human_shell_hint: .*\/task/m);
    expect(briefOf(result)).toBe(`Started ${id}`);
    expect(result.return_value.display).toContainEqual({
      type: 'background_task',
      task_id: id,
      kind: 'bash',
      // The command may already have finished by the time the answer is built.
      status: expect.stringMatching(/^(running|completed)$/),
      description: 'quick echo',
    });

    const done = await manager.wait(id!, 10_000);
    expect(done.runtime).toMatchObject({ status: 'completed', exit_code: 0 });
    expect(done.spec.cwd).toBe(workDir);
  });

  it('is refused in a subagent', async () => {
    const toolset = await shellToolset({ role: 'subagent' });
    const result = await callTool(toolset, 'Shell', {
      command: 'echo hi',
      run_in_background: true,
      description: 'not allowed',
    });
    expect(result.return_value.is_error).toBe(true);
    expect(briefOf(result)).toBe('Background task unavailable');
    expect(manager.list()).toHaveLength(0);
  });

  it('reports the limit of running tasks', async () => {
    const toolset = await shellToolset();
    for (let i = 0; i < 4; i++) {
      const started = await callTool(toolset, 'Shell', {
        command: 'sleep 300',
        run_in_background: true,
        description: `sleeper ${i}`,
      });
      expect(started.return_value.is_error).toBe(false);
    }
    const fifth = await callTool(toolset, 'Shell', {
      command: 'sleep 300',
      run_in_background: true,
      description: 'one too many',
    });
    expect(fifth.return_value.is_error).toBe(true);
    expect(fifth.return_value.message).toBe('Too many background tasks are already running.');
    expect(briefOf(fifth)).toBe('Background start failed');
  });
});
