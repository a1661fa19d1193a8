import { execFileSync } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { sessionFolder, startRedis, startWorker, submit } from '../support/fleet-cli.js';
import { collect, waitForOutput } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import type { ScriptedLLMServer, ScriptedTurn } from '../support/scripted-llm-server.js';

const cli = useScriptedCli();

interface ChatMessage {
  role: string;
  content: unknown;
  tool_calls?: { function: { name: string } }[];
  tool_call_id?: string;
}

const textOf = (content: unknown) =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? (content as { text?: string }[]).map((part) => part.text ?? '').join('')
      : '';

/**
 * The model of both sessions: "other" answers at once; the waiting one starts a background command
 * (blocked on a fifo), reads its task id from the Shell result and waits for it, then says what
 * the wait gave it.
 */
function scriptWaitingSession(server: ScriptedLLMServer, timeouts: number[] = []): void {
  let waits = 0;
  server.answerBy((body): ScriptedTurn => {
    const messages = (body as { messages: ChatMessage[] }).messages;
    const texts = messages.map((m) => textOf(m.content));
    if (texts.some((text) => text.includes('another task'))) return { text: 'Other session done.' };
    const waitResult = messages.find((m) => m.role === 'tool' && textOf(m.content).includes('wait_status'));
    const stopResult = messages.find((m) => m.tool_call_id === 'stop');
    if (stopResult) return { text: `TaskStop said: ${textOf(stopResult.content)}` };
    // A wait that ran out: the model stops the command.
    const ranOut = waitResult && textOf(waitResult.content).includes('wait_status: timed_out');
    const waitedTask = /task_id: (\S+)/.exec(textOf(waitResult?.content))?.[1];
    if (ranOut && waitedTask)
      return {
        toolCalls: [
          { id: 'stop', name: 'TaskStop', args: { task_id: waitedTask, reason: 'no longer needed' } },
        ],
      };
    if (waitResult) return { text: `The wait said: ${textOf(waitResult.content)}` };
    const taskId = texts.map((text) => /task_id: (\S+)/.exec(text)?.[1]).find(Boolean);
    if (taskId) {
      const timeout = timeouts[waits++] ?? 300;
      return { toolCalls: [{ id: 'wait', name: 'WaitFor', args: { task_id: taskId, timeout } }] };
    }
    return {
      toolCalls: [
        {
          id: 'bg',
          name: 'Shell',
          args: {
            command: 'cat gate.fifo; echo waited-result-7',
            run_in_background: true,
            description: 'gated job',
          },
        },
      ],
    };
  });
}

/**
 * A fleet with one worker (`workerFlags`) whose turn is parked in its WaitFor on a background
 * command blocked on `gate.fifo` (the model's WaitFor timeouts: `timeouts`, then 300 s).
 */
async function parkedWait(workerFlags: string[], timeouts: number[] = []) {
  const { server, sandbox } = await cli.setup([]);
  scriptWaitingSession(server, timeouts);
  execFileSync('mkfifo', [join(sandbox.workDir, 'gate.fifo')]);
  const redis = await startRedis(cli);
  const worker = await startWorker(cli, sandbox, redis.url, workerFlags);
  const waiting = sandbox.spawn([
    'submit',
    '--queue',
    redis.url,
    '-p',
    'run the job and wait',
    '--yolo',
    '--wait',
  ]);
  const submitted = collect(waiting);
  const [idLine] = await Promise.all([
    waitForOutput(waiting.stdout!, /\n/),
    waitForOutput(waiting.stderr!, /Waiting for background task bash-\S+ \(the turn holds no worker/),
  ]);
  return { server, sandbox, redis, worker, submitted, sessionId: idLine.trim() };
}

it('a WaitFor parks its turn: the worker runs another session meanwhile, and the turn goes on with the output', async () => {
  // One turn at a time: the other session can only run if the waiting one holds no worker.
  const { sandbox, redis, worker, submitted } = await parkedWait(['--concurrency', '1']);
  const parkedAt = Date.now();
  const status = JSON.parse((await sandbox.run(['fleet', 'status', '--queue', redis.url, '--json'])).stdout);
  expect(status.counts).toMatchObject({ running: 0, delayed: 1 });
  const other = await submit(sandbox, redis.url, 'another task', ['--wait']);
  expect(other.code).toBe(0);
  expect(other.stdout).toContain('Other session done.');
  // The task ran on in the worker all along: let it end now.
  await writeFile(join(sandbox.workDir, 'gate.fifo'), 'go\n');
  const parkedFor = Date.now() - parkedAt;
  const result = await submitted;
  expect(result.code).toBe(0);
  expect(result.stderr).toMatch(/The wait is over; the turn goes on, on worker@/);
  // The wait is counted from the WaitFor that parked, not from the redone one.
  expect(Number(/waited_ms: (\d+)/.exec(result.stdout)?.[1])).toBeGreaterThanOrEqual(parkedFor);
  expect(result.stdout).toMatch(/The wait said: .*wait_status: completed\n/);
  expect(result.stdout).toContain('exit_code: 0');
  expect(result.stdout).toMatch(/\[output\]\ngo\nwaited-result-7/);
  worker.child.kill('SIGTERM');
  expect((await worker.result).stderr).toMatch(/waking turn:\S+: a task it waits for ended/);
});

it('a parked wait whose time runs out is woken: the redone WaitFor says timed_out, and TaskStop stops the command it kept', async () => {
  const { sandbox, worker, submitted, sessionId } = await parkedWait(['--concurrency', '1'], [2]);
  const result = await submitted;
  expect(result.code).toBe(0);
  expect(result.stderr).toMatch(/The wait is over; the turn goes on, on worker@/);
  expect(result.stdout).toMatch(/TaskStop said: /);
  expect(await taskReasons(sandbox.home, sessionId)).toEqual(['no longer needed']);
  worker.child.kill('SIGTERM');
  expect((await worker.result).stderr).toMatch(/waking turn:\S+: its wait is over/);
});

it('a cancel ends a parked wait (the turn stops, the worker is free), and the task is stopped with the session', async () => {
  const { server, sandbox, redis, worker, submitted, sessionId } = await parkedWait(['--concurrency', '1']);
  const turnDone = waitForOutput(worker.child.stderr!, /finished turn:\S+ \(exit 1\)/);
  const cancelled = await sandbox.run(['fleet', 'cancel', sessionId, '--queue', redis.url]);
  expect(cancelled.code).toBe(0);
  const result = await submitted;
  expect(result.code).toBe(1);
  expect(result.stderr).toContain('Interrupted by user');
  // No step ran after the cancel: the model was not asked again.
  expect(server.requests).toHaveLength(2);
  // The session ended with the turn: its task was stopped then (as a local session's end stops it).
  await turnDone;
  expect(await taskStatuses(sandbox.home, sessionId)).toEqual(['killed']);
  const other = await submit(sandbox, redis.url, 'another task', ['--wait']);
  expect(other.code).toBe(0);
});

it('a worker drained with a parked wait stops its task and hands the turn on: another worker resumes it and hears the task was stopped', async () => {
  const { sandbox, redis, worker: first, submitted, sessionId } = await parkedWait(['--label', 'first']);
  first.child.kill('SIGTERM');
  const drained = await first.result;
  expect(drained.code).toBe(0);
  expect(drained.stderr).toContain(`stopped the tasks of ${sessionId}'s parked turn`);
  expect(await taskStatuses(sandbox.home, sessionId)).toEqual(['killed']);
  await startWorker(cli, sandbox, redis.url, ['--label', 'second']);
  const result = await submitted;
  expect(result.code).toBe(0);
  expect(result.stderr).toMatch(/The wait is over; the turn goes on, on second@/);
  expect(result.stdout).toMatch(/The wait said: .*wait_status: completed\n/);
  expect(result.stdout).toContain('status: killed');
  expect(result.stdout).toContain('reason: Stopped because its worker stopped.');
});

it('a machine lost with a parked wait: its claim expires, another worker runs the turn and hears the task was lost', {
  timeout: 60_000,
}, async () => {
  // The wait is short: the parked job comes due by itself, its worker being dead.
  const {
    sandbox,
    redis,
    worker: first,
    submitted,
    sessionId,
  } = await parkedWait(['--label', 'first', '--lease-ms', '1000'], [2]);
  // The machine goes: the worker and the command it kept running.
  first.child.kill('SIGKILL');
  await first.result;
  for (const pid of await taskPids(sandbox.home, sessionId)) killGroupIfAlive(pid);
  await startWorker(cli, sandbox, redis.url, ['--label', 'second']);
  const result = await submitted;
  expect(result.code).toBe(0);
  expect(result.stderr).toMatch(/The wait is over; the turn goes on, on second@/);
  expect(result.stdout).toMatch(/The wait said: .*wait_status: completed\n/);
  expect(result.stdout).toContain('status: lost');
  expect(result.stdout).toContain('The process of this task is gone');
});

/** The statuses of the session's background tasks, as their folders say. */
async function taskStatuses(home: string, sessionId: string): Promise<string[]> {
  const tasks = join(await sessionFolder(home, sessionId), 'tasks');
  const statuses: string[] = [];
  for (const id of await readdir(tasks)) {
    const runtime = JSON.parse(await readFile(join(tasks, id, 'runtime.json'), 'utf8')) as { status: string };
    statuses.push(runtime.status);
  }
  return statuses;
}

/** The process ids of the session's background tasks, as their folders say. */
async function taskPids(home: string, sessionId: string): Promise<number[]> {
  const tasks = join(await sessionFolder(home, sessionId), 'tasks');
  const pids: number[] = [];
  for (const id of await readdir(tasks)) {
    const runtime = JSON.parse(await readFile(join(tasks, id, 'runtime.json'), 'utf8')) as {
      pid: number | null;
    };
    if (runtime.pid !== null) pids.push(runtime.pid);
  }
  return pids;
}

function killGroupIfAlive(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/** Why the session's background tasks ended, as their folders say. */
async function taskReasons(home: string, sessionId: string): Promise<(string | null)[]> {
  const tasks = join(await sessionFolder(home, sessionId), 'tasks');
  const reasons: (string | null)[] = [];
  for (const id of await readdir(tasks)) {
    const runtime = JSON.parse(await readFile(join(tasks, id, 'runtime.json'), 'utf8')) as {
      failure_reason: string | null;
    };
    reasons.push(runtime.failure_reason);
  }
  return reasons;
}
