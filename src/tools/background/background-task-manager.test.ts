import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isProcessAlive, isProcessGroupAlive } from '../shell/process-group.js';
import { commandEnvironment, findBash } from '../shell/shell-environment.js';
import {
  type BackgroundTaskManager,
  BackgroundTaskNotFound,
  type BashTaskRequest,
  TooManyBackgroundTasks,
} from './background-task-manager.js';
import { taskFileSchemas } from './task-model.js';
import {
  makeTempDir,
  openManager,
  PublishedNotifications,
  readPids,
  removeDir,
  waitForFile,
} from './test-support/task-harness.js';

let dir: string;
let sessionDir: string;
let manager: BackgroundTaskManager;
let published: PublishedNotifications;
let errors: unknown[];
const bash = findBash(process.env, []) as string;

beforeEach(async () => {
  dir = await makeTempDir('kimi-ts-tasks-');
  sessionDir = join(dir, 'session');
  errors = [];
  published = new PublishedNotifications();
  manager = await openManager(sessionDir, {}, errors, published);
});
afterEach(async () => {
  await manager.shutdown();
  await removeDir(dir);
  expect(errors).toEqual([]);
});

function bashTask(command: string, extra: Partial<BashTaskRequest> = {}): BashTaskRequest {
  return {
    command,
    description: `run ${command}`,
    timeoutS: null,
    cwd: dir,
    env: commandEnvironment(process.env, bash, []),
    shellPath: bash,
    ...extra,
  };
}

/** A command that starts a grandchild `sleep`, records both pids in `pidFile`, then waits. */
function sleeperWithChild(pidFile: string): string {
  return `sleep 300 & echo $$ $! > ${pidFile}.tmp && mv ${pidFile}.tmp ${pidFile}; wait`;
}

describe('bash tasks', () => {
  it('stay unsettled until their outcome is published: no moment when a result is neither waited for nor pending', async () => {
    const { spec } = await manager.startBash(bashTask('exit 0'));
    let sawEnding = false;
    // Every turn of the event loop until the notification is out (print mode decides on these two).
    while (published.drafts.length === 0) {
      const ended = manager.get(spec.id)!.runtime.status !== 'running';
      if (ended) sawEnding = true;
      expect(manager.unsettledIds()).toEqual([spec.id]);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(sawEnding).toBe(true);
    await manager.wait(spec.id, 10_000);
    expect(manager.unsettledIds()).toEqual([]);
  });

  it('run to completion with their output in output.log and their state in the task folder', async () => {
    const started = await manager.startBash(bashTask('echo out; echo err >&2; exit 0'));
    expect(started.spec.id).toMatch(/^bash-[0-9a-z]{8}$/);
    expect(started.runtime.pid).toBeGreaterThan(0);

    const done = await manager.wait(started.spec.id, 10_000);
    expect(done.runtime).toMatchObject({
      status: 'completed',
      exit_code: 0,
      interrupted: false,
      timed_out: false,
    });
    expect(done.outputPath).toBe(join(sessionDir, 'tasks', started.spec.id, 'output.log'));
    expect(await readFile(done.outputPath, 'utf8')).toBe('out\nerr\n');

    const folder = join(sessionDir, 'tasks', started.spec.id);
    const spec = taskFileSchemas().taskSpecSchema.parse(
      JSON.parse(await readFile(join(folder, 'spec.json'), 'utf8')),
    );
    const runtime = taskFileSchemas().taskRuntimeSchema.parse(
      JSON.parse(await readFile(join(folder, 'runtime.json'), 'utf8')),
    );
    expect(spec).toMatchObject({ kind: 'bash', command: 'echo out; echo err >&2; exit 0', cwd: dir });
    expect(runtime).toMatchObject({ status: 'completed', exit_code: 0 });
    expect(runtime.finished_at).toBeGreaterThanOrEqual(runtime.started_at ?? Number.POSITIVE_INFINITY);
  });

  it('fail with the exit code of a failing command', async () => {
    const { spec } = await manager.startBash(bashTask('echo broken; exit 3'));
    const done = await manager.wait(spec.id, 10_000);
    expect(done.runtime).toMatchObject({ status: 'failed', exit_code: 3, timed_out: false });
  });

  it('fail as timed out when their timeout runs out, with the process tree gone', async () => {
    // The timeout must not run out before the command has recorded its pids. A control run (stopped
    // once its pids are written) says how long that takes on this machine now; the timeout is three
    // times that, at least 0.3 s — a bound on our time, not a race with the scheduler.
    const controlFile = join(dir, 'control-pids');
    const controlStarted = performance.now();
    const control = await manager.startBash(bashTask(sleeperWithChild(controlFile)));
    await waitForFile(controlFile);
    const timeoutS = Math.max(0.3, Math.ceil((3 * (performance.now() - controlStarted)) / 100) / 10);
    await manager.stop(control.spec.id, 'control done');
    published.drafts.length = 0;

    const pidFile = join(dir, 'pids');
    const { spec } = await manager.startBash(bashTask(sleeperWithChild(pidFile), { timeoutS }));
    await waitForFile(pidFile);
    const pids = await readPids(pidFile);
    const done = await manager.wait(spec.id, 10_000);
    expect(done.runtime).toMatchObject({
      status: 'failed',
      timed_out: true,
      interrupted: true,
      failure_reason: `Command timed out after ${timeoutS}s`,
    });
    expect(pids.some(isProcessAlive)).toBe(false);
    expect(published.drafts.map((draft) => draft.type)).toEqual(['task.timed_out']);
  });

  it('stop kills the whole process group and records the reason', async () => {
    const pidFile = join(dir, 'pids');
    const { spec } = await manager.startBash(bashTask(sleeperWithChild(pidFile)));
    await waitForFile(pidFile);
    const pids = await readPids(pidFile);
    expect(pids.every(isProcessAlive)).toBe(true);

    const stopped = await manager.stop(spec.id, 'no longer needed');

    expect(stopped.runtime).toMatchObject({
      status: 'killed',
      interrupted: true,
      failure_reason: 'no longer needed',
    });
    expect(pids.some(isProcessAlive)).toBe(false);
    expect(isProcessGroupAlive(spec.id === stopped.spec.id ? (stopped.runtime.pid as number) : 0)).toBe(
      false,
    );
    // Stopping again changes nothing.
    const again = await manager.stop(spec.id, 'twice');
    expect(again.runtime.failure_reason).toBe('no longer needed');
  });

  it('escalates to SIGKILL for a task that ignores SIGTERM', async () => {
    const pidFile = join(dir, 'pids');
    const { spec } = await manager.startBash(bashTask(`trap '' TERM; ${sleeperWithChild(pidFile)}`));
    await waitForFile(pidFile);
    const pids = await readPids(pidFile);
    const stopped = await manager.stop(spec.id, 'stubborn');
    expect(stopped.runtime.status).toBe('killed');
    expect(pids.some(isProcessAlive)).toBe(false);
  });

  it('allow at most maxRunningTasks at a time', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await manager.startBash(bashTask('sleep 300'))).spec.id);
    expect(manager.activeCount()).toBe(4);
    await expect(manager.startBash(bashTask('sleep 300'))).rejects.toThrow(TooManyBackgroundTasks);
    await expect(manager.startBash(bashTask('sleep 300'))).rejects.toThrow(
      'Too many background tasks are already running.',
    );

    await manager.stop(ids[0]!, 'make room');
    const fifth = await manager.startBash(bashTask('sleep 300'));
    expect(fifth.runtime.status).toBe('running');
  });

  it('tell the caller a task refused for the limit ended (the sandbox counts running commands)', async () => {
    for (let i = 0; i < 4; i++) await manager.startBash(bashTask('sleep 300'));
    let ended = 0;
    const refused = {
      ...bashTask('sleep 300'),
      onExited: async () => {
        ended++;
        return null;
      },
    };
    await expect(manager.startBash(refused)).rejects.toThrow(TooManyBackgroundTasks);
    expect(ended).toBe(1);
  });

  it('count tasks still starting against the limit', async () => {
    const attempts = await Promise.allSettled(
      Array.from({ length: 6 }, () => manager.startBash(bashTask('sleep 300'))),
    );
    expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(4);
    expect(attempts.filter((a) => a.status === 'rejected')).toHaveLength(2);
  });

  it('report a command that cannot start as failed', async () => {
    await expect(manager.startBash(bashTask('echo hi', { cwd: join(dir, 'missing') }))).rejects.toThrow(
      /Could not start the command/,
    );
    const [failed] = manager.list();
    expect(failed?.runtime.status).toBe('failed');
    expect(manager.activeCount()).toBe(0);
  });

  it('stopAll stops every running task and leaves none behind', async () => {
    const pidFiles = [join(dir, 'a'), join(dir, 'b')];
    for (const pidFile of pidFiles) await manager.startBash(bashTask(sleeperWithChild(pidFile)));
    const pids = (
      await Promise.all(
        pidFiles.map(async (pidFile) => {
          await waitForFile(pidFile);
          return readPids(pidFile);
        }),
      )
    ).flat();
    const stopped = await manager.stopAll('session over');
    expect(stopped.map((view) => view.runtime.status)).toEqual(['killed', 'killed']);
    expect(pids.some(isProcessAlive)).toBe(false);
    expect(manager.activeCount()).toBe(0);
  });

  it('unknown ids are reported', async () => {
    await expect(manager.stop('bash-00000000', 'x')).rejects.toThrow(BackgroundTaskNotFound);
    await expect(manager.wait('bash-00000000', 1)).rejects.toThrow('Task not found: bash-00000000');
    expect(manager.get('bash-00000000')).toBeUndefined();
  });
});

describe('waiting for a task', () => {
  it('returns as soon as the task ends', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { spec } = await manager.startAgent({ description: 'gated', run: () => gate });
    let returned = false;
    const waiting = manager.wait(spec.id, 60_000).then((view) => {
      returned = true;
      return view;
    });
    await manager.wait(spec.id, 0);
    expect(returned).toBe(false);
    release();
    expect((await waiting).runtime.status).toBe('completed');
  });

  it('rejects when its signal aborts', async () => {
    const { spec } = await manager.startBash(bashTask('sleep 300'));
    const controller = new AbortController();
    const waiting = manager.wait(spec.id, 60_000, controller.signal);
    controller.abort(new Error('cancelled'));
    await expect(waiting).rejects.toThrow('cancelled');
  });
});

describe('agent tasks', () => {
  it('complete when their function returns, with what they wrote as output', async () => {
    const { spec } = await manager.startAgent({
      description: 'summarise',
      metadata: { agent_id: 'a1234abcd' },
      run: async (ctx) => {
        await ctx.writeOutput('step 1\n');
        await ctx.writeOutput('done\n');
      },
    });
    expect(spec.id).toMatch(/^agent-[0-9a-z]{8}$/);
    const done = await manager.wait(spec.id, 10_000);
    expect(done.runtime).toMatchObject({ status: 'completed', exit_code: null });
    expect(done.spec.metadata).toEqual({ agent_id: 'a1234abcd' });
    expect(await readFile(done.outputPath, 'utf8')).toBe('step 1\ndone\n');
  });

  it('fail with the error their function throws', async () => {
    const { spec } = await manager.startAgent({
      description: 'explodes',
      run: async () => {
        throw new Error('provider unavailable');
      },
    });
    const done = await manager.wait(spec.id, 10_000);
    expect(done.runtime).toMatchObject({ status: 'failed', failure_reason: 'provider unavailable' });
  });

  it('are aborted by stop and by their timeout', async () => {
    const seen: unknown[] = [];
    const untilAborted = (signal: AbortSignal) =>
      new Promise<void>((_resolve, reject) => {
        signal.addEventListener('abort', () => {
          seen.push(signal.reason);
          reject(signal.reason);
        });
      });
    const stopped = await manager.startAgent({
      description: 'stopped',
      run: (ctx) => untilAborted(ctx.signal),
    });
    expect((await manager.stop(stopped.spec.id, 'user asked')).runtime).toMatchObject({
      status: 'killed',
      failure_reason: 'user asked',
    });

    const timed = await manager.startAgent({
      description: 'slow',
      timeoutS: 0.05,
      run: (ctx) => untilAborted(ctx.signal),
    });
    expect((await manager.wait(timed.spec.id, 10_000)).runtime).toMatchObject({
      status: 'failed',
      timed_out: true,
      failure_reason: 'Agent task timed out after 0.05s',
    });
    expect(seen).toHaveLength(2);
  });

  it('can be marked as awaiting approval and running again', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let ready!: () => void;
    const marked = new Promise<void>((resolve) => {
      ready = resolve;
    });
    const { spec } = await manager.startAgent({
      description: 'asks',
      run: async (ctx) => {
        await ctx.setAwaitingApproval(true);
        ready();
        await gate;
        await ctx.setAwaitingApproval(false);
      },
    });
    await marked;
    expect(manager.get(spec.id)?.runtime.status).toBe('awaiting_approval');
    expect(manager.activeCount()).toBe(1);
    release();
    expect((await manager.wait(spec.id, 10_000)).runtime.status).toBe('completed');
  });
});

describe('on exit and on resume', () => {
  it('shutdown stops running tasks and refuses new ones', async () => {
    const { spec } = await manager.startBash(bashTask('sleep 300'));
    const stopped = await manager.shutdown();
    expect(stopped.map((view) => view.spec.id)).toEqual([spec.id]);
    expect(manager.get(spec.id)?.runtime.status).toBe('killed');
    await expect(manager.startBash(bashTask('true'))).rejects.toThrow(/closing/);
  });

  it('with keepAliveOnExit leaves bash tasks running; the next session adopts and can stop them', async () => {
    const keepAlive = await openManager(join(dir, 'kept'), { keepAliveOnExit: true });
    const pidFile = join(dir, 'kept-pids');
    const { spec } = await keepAlive.startBash(bashTask(sleeperWithChild(pidFile)));
    await waitForFile(pidFile);
    const pids = await readPids(pidFile);
    expect(await keepAlive.shutdown()).toEqual([]);
    expect(pids.every(isProcessAlive)).toBe(true);

    const resumed = await openManager(join(dir, 'kept'));
    try {
      expect(resumed.get(spec.id)?.runtime.status).toBe('running');
      expect(resumed.activeCount()).toBe(1);
      const stopped = await resumed.stop(spec.id, 'cleaning up');
      expect(stopped.runtime.status).toBe('killed');
      expect(pids.some(isProcessAlive)).toBe(false);
    } finally {
      await resumed.shutdown();
    }
  });

  it('does not adopt an unrelated process that now has the recorded process group id', async () => {
    const stranger = spawn('sleep', ['300'], { detached: true, stdio: 'ignore' });
    try {
      const strangerPid = stranger.pid as number;
      const { spec } = await manager.startBash(bashTask('exit 0'));
      await manager.wait(spec.id, 10_000);
      const folder = join(sessionDir, 'tasks', spec.id);
      const storedRuntime = JSON.parse(await readFile(join(folder, 'runtime.json'), 'utf8'));
      await writeFile(
        join(folder, 'runtime.json'),
        JSON.stringify({ ...storedRuntime, status: 'running', pid: strangerPid, finished_at: null }),
      );
      await manager.shutdown();

      manager = await openManager(sessionDir, {}, errors);
      expect(manager.get(spec.id)?.runtime.status).toBe('lost');
      expect(isProcessAlive(strangerPid)).toBe(true);
    } finally {
      stranger.kill('SIGKILL');
    }
  });

  it('marks a task whose process is gone as lost, with a notification', async () => {
    const { spec } = await manager.startBash(bashTask('sleep 300'));
    await manager.stop(spec.id, 'x');
    // Rewrite the files as a crashed run would have left them: still running, process long gone.
    const lostDir = join(dir, 'crashed', 'tasks', 'bash-lost0001');
    await mkdir(lostDir, { recursive: true });
    const folder = join(sessionDir, 'tasks', spec.id);
    const storedSpec = JSON.parse(await readFile(join(folder, 'spec.json'), 'utf8'));
    const storedRuntime = JSON.parse(await readFile(join(folder, 'runtime.json'), 'utf8'));
    await writeFile(join(lostDir, 'spec.json'), JSON.stringify({ ...storedSpec, id: 'bash-lost0001' }));
    await writeFile(
      join(lostDir, 'runtime.json'),
      JSON.stringify({ ...storedRuntime, status: 'running', finished_at: null, failure_reason: null }),
    );
    await writeFile(join(lostDir, 'output.log'), 'partial output\n');

    const resumedNotifications = new PublishedNotifications();
    const resumed = await openManager(join(dir, 'crashed'), {}, [], resumedNotifications);
    try {
      expect(resumed.get('bash-lost0001')?.runtime).toMatchObject({
        status: 'lost',
        failure_reason: expect.stringContaining('exit status is unknown'),
      });
      const [notification] = resumedNotifications.drafts;
      expect(notification?.type).toBe('task.lost');
      expect(notification?.output_tail).toContain('partial output');
    } finally {
      await resumed.shutdown();
    }
  });
});
