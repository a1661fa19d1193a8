import { expect, it } from 'vitest';
import { deferred } from '../../src/util/deferred.js';
import { jsonLines, sessionFolder, startRedis, startWorker, submit } from '../support/fleet-cli.js';
import { collect, waitForOutput } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';

const cli = useScriptedCli();

it('no Redis: submit and worker say so in one line (host:port, no credentials) and exit non-zero', async () => {
  const { server, sandbox } = await cli.setup([]);
  const redis = await startRedis(cli);
  await redis.stop();
  const url = `redis://fleet:hunter2-secret@127.0.0.1:${redis.port}`;
  const submitted = await submit(sandbox, url, 'hello', ['--wait']);
  expect(submitted.code).toBe(75);
  expect(submitted.stdout).toBe('');
  expect(submitted.stderr).toBe(
    `kimi-ts submit: Cannot reach Redis at 127.0.0.1:${redis.port}: connection refused.\n`,
  );
  const worker = await sandbox.run(['worker', '--queue', url]);
  expect(worker.code).toBe(1);
  expect(worker.stderr).toBe(
    `kimi-ts worker: Cannot reach Redis at 127.0.0.1:${redis.port}: connection refused.\n`,
  );
  expect(server.requests).toHaveLength(0);
});

it('Redis gone mid-turn: the worker and submit --wait say so and exit non-zero; no step is half written', async () => {
  const { promise: held, resolve: release } = deferred();
  cli.defer(() => release());
  const { server, sandbox } = await cli.setup([{ text: 'answered after Redis left', holdUntil: held }]);
  const redis = await startRedis(cli);
  const worker = await startWorker(cli, sandbox, redis.url);
  const waiting = sandbox.spawn(['submit', '--queue', redis.url, '-p', 'hello', '--wait']);
  const submitted = collect(waiting);
  const sessionId = (await waitForOutput(waiting.stdout!, /\n/)).trim();
  await server.waitForRequests(1);
  await redis.stop();
  release();
  const [workerResult, submitResult] = await Promise.all([worker.result, submitted]);
  expect(workerResult.code).toBe(1);
  expect(workerResult.stderr).toContain(`Cannot reach Redis at 127.0.0.1:${redis.port}`);
  expect(submitResult.code).toBe(75);
  expect(submitResult.stderr).toContain(`Redis at 127.0.0.1:${redis.port}`);
  // The step that ended while Redis was gone could not confirm its lease: it was not committed.
  const folder = await sessionFolder(sandbox.home, sessionId);
  const context = await jsonLines(`${folder}/context.jsonl`);
  expect(JSON.stringify(context)).not.toContain('answered after Redis left');
  expect(context.filter((line) => line.role === 'user')).toHaveLength(1);
});

it('Redis restarted mid-turn (append-only file): the turn finishes, no committed step lost', async () => {
  const { promise: held, resolve: release } = deferred();
  cli.defer(() => release());
  const { server, sandbox } = await cli.setup([
    { toolCalls: [{ id: 'call-think-1', name: 'Think', args: { thought: 'first step' } }] },
    { text: 'Finished across the restart.', holdUntil: held },
  ]);
  const redis = await startRedis(cli);
  const worker = await startWorker(cli, sandbox, redis.url);
  const waiting = sandbox.spawn(['submit', '--queue', redis.url, '-p', 'think then answer', '--wait']);
  const submitted = collect(waiting);
  const sessionId = (await waitForOutput(waiting.stdout!, /\n/)).trim();
  await server.waitForRequests(2);
  await redis.restart();
  release();
  const result = await submitted;
  expect(result.code).toBe(0);
  expect(result.stdout).toContain('Finished across the restart.');
  expect(worker.child.exitCode).toBeNull();
  const folder = await sessionFolder(sandbox.home, sessionId);
  const roles = (await jsonLines(`${folder}/context.jsonl`))
    .map((line) => line.role)
    .filter((role) => typeof role === 'string' && !role.startsWith('_'));
  expect(roles).toEqual(['user', 'assistant', 'tool', 'assistant']);
  // The stream kept every event of the turn across the restart: a replay shows all of it.
  const replay = await submit(sandbox, redis.url, 'think then answer', ['--session', sessionId, '--wait']);
  expect(replay.code).toBe(0);
  expect(replay.stdout).toContain('Finished across the restart.');
  expect(server.requests).toHaveLength(2);
});
