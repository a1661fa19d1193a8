import { expect, it } from 'vitest';
import { startRedis, startWorker, submit } from '../support/fleet-cli.js';
import { collect, waitForOutput } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';

const cli = useScriptedCli();

it('fleet status shows the workers and which session runs where; SIGTERM drains the worker', async () => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
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
