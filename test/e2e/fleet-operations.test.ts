import { expect, it } from 'vitest';
import { deferred } from '../../src/util/deferred.js';
import { startRedis, startWorker, submit } from '../support/fleet-cli.js';
import { collect, waitForOutput } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';

const cli = useScriptedCli();

it('fleet status shows the workers and which session runs where; SIGTERM drains the worker', async () => {
  const { promise: held, resolve: release } = deferred();
  cli.defer(() => release());
  const { server, sandbox } = await cli.setup([{ text: 'Finished while draining.', holdUntil: held }]);
  const redis = await startRedis(cli);
  const worker = await startWorker(cli, sandbox, redis.url, ['--label', 'alpha']);
  const waiting = sandbox.spawn(['submit', '--queue', redis.url, '-p', 'work', '--wait']);
  const submitted = collect(waiting);
  const sessionId = (await waitForOutput(waiting.stdout!, /\n/)).trim();
  await server.waitForRequests(1);

  const status = await sandbox.run(['fleet', 'status', '--queue', redis.url]);
  expect(status.code).toBe(0);
  expect(status.stdout).toContain(`Fleet on 127.0.0.1:${redis.port}`);
  expect(status.stdout).toContain('0 waiting, 1 running');
  expect(status.stdout).toMatch(new RegExp(`alpha@[^\\n]*: ${sessionId} turn 1`));

  // While a worker holds the session, a local process cannot open it.
  const local = await sandbox.run(['--print', '-S', sessionId, '-p', 'meanwhile']);
  expect(local.code).toBe(1);
  expect(local.stderr).toContain('in use by another kimi-ts process');

  // Drain: the running turn finishes, a turn queued meanwhile is left for another worker.
  const draining = waitForOutput(worker.child.stderr!, /draining/);
  worker.child.kill('SIGTERM');
  await draining;
  const later = await submit(sandbox, redis.url, 'later');
  expect(later.code).toBe(0);
  release();
  const [workerResult, submitResult] = await Promise.all([worker.result, submitted]);
  expect(workerResult.code).toBe(0);
  expect(submitResult.code).toBe(0);
  expect(submitResult.stdout).toContain('Finished while draining.');
  const after = JSON.parse((await sandbox.run(['fleet', 'status', '--queue', redis.url, '--json'])).stdout);
  expect(after.counts).toMatchObject({ waiting: 1, running: 0, completed: 1 });
  expect(after.workers).toHaveLength(0);
  expect(server.requests).toHaveLength(1);
});

it('fleet cancel reaches the worker that runs the turn: it stops, the worker goes on', async () => {
  const { server, sandbox } = await cli.setup([
    // Never answered: only the cancel ends this turn.
    { text: 'never', stall: 'before-headers' },
    { text: 'The next turn runs.' },
  ]);
  const redis = await startRedis(cli);
  const worker = await startWorker(cli, sandbox, redis.url);
  const session = '7a1d2c3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e';
  const waiting = sandbox.spawn([
    'submit',
    '--queue',
    redis.url,
    '-p',
    'work',
    '--session',
    session,
    '--wait',
  ]);
  const submitted = collect(waiting);
  await server.waitForRequests(1);
  const mistyped = await sandbox.run(['fleet', 'cancel', session.slice(0, 8), '--queue', redis.url]);
  expect(mistyped.code).toBe(2);
  expect(mistyped.stderr).toContain('takes a full session UUID');
  const cancelled = await sandbox.run(['fleet', 'cancel', session, '--queue', redis.url]);
  expect(cancelled.code).toBe(0);
  const result = await submitted;
  expect(result.code).toBe(1);
  expect(result.stderr).toContain('Interrupted by user');
  // The cancel was spent on that turn: the next one runs on the same worker.
  const next = await submit(sandbox, redis.url, 'again', ['--session', session, '--turn', '2', '--wait']);
  expect(next.code).toBe(0);
  expect(next.stdout).toContain('The next turn runs.');
  expect(worker.child.exitCode).toBeNull();
});

it('a cancel sent while the turn waits in the queue is caught by the worker that takes it', async () => {
  const { server, sandbox } = await cli.setup([{ text: 'must not run' }]);
  const redis = await startRedis(cli);
  const session = '2e9b7c4d-1a3f-4e5b-9c8d-7f6a5b4c3d2e';
  expect((await submit(sandbox, redis.url, 'work', ['--session', session])).code).toBe(0);
  expect((await sandbox.run(['fleet', 'cancel', session, '--queue', redis.url])).code).toBe(0);
  await startWorker(cli, sandbox, redis.url);
  const result = await submit(sandbox, redis.url, 'work', ['--session', session, '--wait']);
  expect(result.code).toBe(1);
  expect(result.stderr).toContain('Interrupted by user');
  expect(server.requests).toHaveLength(0);
});
