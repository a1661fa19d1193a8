import { readdir } from 'node:fs/promises';
import { Queue } from 'bullmq';
import { expect, it } from 'vitest';
import { startRedis, startWorker, submit } from '../support/fleet-cli.js';
import { waitForOutput } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';

const cli = useScriptedCli();

it('jobs that are not turn jobs, or whose id names another session, fail without touching a session', async () => {
  const { server, sandbox } = await cli.setup([{ text: 'The real turn.' }]);
  const redis = await startRedis(cli);
  const queue = new Queue('turns', {
    connection: { host: '127.0.0.1', port: redis.port },
    prefix: 'kimi-ts',
  });
  cli.defer(() => queue.close());
  const victim = '11111111-2222-4333-8444-555555555555';
  const other = '66666666-7777-4888-9999-aaaaaaaaaaaa';
  const data = {
    sessionId: other,
    turn: 1,
    workDir: sandbox.workDir,
    prompt: 'rm -rf',
    yolo: true,
    afk: false,
  };
  const worker = await startWorker(cli, sandbox, redis.url);
  const bothFailed = waitForOutput(
    worker.child.stderr!,
    new RegExp(`^(?=[\\s\\S]*gave up turn:junk:1)(?=[\\s\\S]*gave up turn:${victim}:1)`),
  );
  // Claims to be turn 1 of the victim session, but its data is another session's.
  await queue.add('turn', data, { jobId: `turn:${victim}:1` });
  // Not a turn job at all.
  await queue.add('turn', { hello: 'world', api_key: 'x' }, { jobId: 'turn:junk:1' });
  await bothFailed;
  const failed = await queue.getFailed();
  expect(failed.map((job) => job.failedReason)).toEqual([
    'Not a turn job of kimi-ts.',
    'Not a turn job of kimi-ts.',
  ]);
  expect(server.requests).toHaveLength(0);
  await expect(readdir(`${sandbox.home}/sessions`)).rejects.toThrow();
  // The worker goes on with real work.
  const real = await submit(sandbox, redis.url, 'hello', ['--wait']);
  expect(real.code).toBe(0);
  expect(real.stdout).toContain('The real turn.');
});

it("a planted job whose id carries terminal control sequences reaches the worker's log only as visible characters", async () => {
  const { server, sandbox } = await cli.setup([]);
  const redis = await startRedis(cli);
  const queue = new Queue('turns', {
    connection: { host: '127.0.0.1', port: redis.port },
    prefix: 'kimi-ts',
  });
  cli.defer(() => queue.close());
  const worker = await startWorker(cli, sandbox, redis.url);
  const gaveUp = waitForOutput(worker.child.stderr!, /gave up turn:/);
  // ESC ] 0 ; … BEL retitles the operator's terminal; ESC [ 2 J clears it.
  await queue.add('turn', { hello: 'world' }, { jobId: 'turn:\u001b]0;owned\u0007\u001b[2J:1' });
  await gaveUp;
  worker.child.kill('SIGTERM');
  const { stderr } = await worker.result;
  expect(stderr).toContain('took turn:');
  expect(stderr).not.toContain('\u001b');
  expect(stderr).not.toContain('\u0007');
  expect(server.requests).toHaveLength(0);
});
