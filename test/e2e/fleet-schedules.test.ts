import { Queue } from 'bullmq';
import { expect, it } from 'vitest';
import { startRedis, startWorker, submit } from '../support/fleet-cli.js';
import { collect, waitForOutput } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';

const cli = useScriptedCli();

const schedule = {
  toolCalls: [
    { id: 'call-cron-1', name: 'CronCreate', args: { cron: '0 0 1 1 *', prompt: 'happy new year' } },
    { id: 'call-cron-2', name: 'CronCreate', args: { delay_seconds: 2, prompt: 'check the build' } },
  ],
};

it("a schedule made in a fleet turn is the fleet's: its fire arrives as the session's next turn job", async () => {
  const { server, sandbox } = await cli.setup([
    schedule,
    { text: 'Scheduled.' },
    { text: 'Build is green.' },
    { text: 'Next turn.' },
  ]);
  const redis = await startRedis(cli);
  const worker = await startWorker(cli, sandbox, redis.url);
  const made = await submit(sandbox, redis.url, 'schedule the checks', ['--yolo', '--wait']);
  expect(made.code).toBe(0);
  expect(made.stdout).toContain('Scheduled.');
  const sessionId = made.stdout.split('\n')[0]!.trim();
  // The recurring schedule is a job scheduler on its pattern, listed with the session.
  const status = JSON.parse((await sandbox.run(['fleet', 'status', '--queue', redis.url, '--json'])).stdout);
  expect(status.schedules).toEqual(
    expect.arrayContaining([expect.objectContaining({ sessionId, pattern: '0 0 1 1 *' })]),
  );
  const text = await sandbox.run(['fleet', 'status', '--queue', redis.url]);
  expect(text.stdout).toMatch(new RegExp(`${sessionId} [0-9a-f]{8} 0 0 1 1 \\*, next `));
  // The one-shot fires as turn 2, on a worker, through the session's own schedule.
  const events = sandbox.spawn(['fleet', 'events', sessionId, '--queue', redis.url, '--follow']);
  const followed = collect(events);
  await waitForOutput(events.stdout!, /"kind":"end","turn":2,"code":0/);
  events.kill('SIGTERM');
  const lines = (await followed).stdout
    .split('\n')
    .filter((line) => line.trim())
    .map(
      (line) =>
        JSON.parse(line) as {
          kind: string;
          turn: number;
          message?: { type: string; payload: Record<string, unknown> };
        },
    );
  const fired = lines.find((line) => line.turn === 2 && line.message?.type === 'ScheduleFired');
  expect(fired?.message?.payload).toMatchObject({ recurring: false, created_by: 'model' });
  expect(JSON.stringify(lines.filter((line) => line.turn === 2))).toContain('Build is green.');
  // The model read the prompt inside the cron-fire envelope, from the session's cron.jsonl.
  const fireRequest = JSON.stringify(server.requests[2]?.body);
  expect(fireRequest).toContain('<cron-fire');
  expect(fireRequest).toContain('check the build');
  // Fired once: the one-shot is gone from the fleet; the yearly one stays.
  const after = JSON.parse((await sandbox.run(['fleet', 'status', '--queue', redis.url, '--json'])).stdout);
  expect(after.schedules).toEqual([expect.objectContaining({ sessionId, pattern: '0 0 1 1 *' })]);
  // A fire of the yearly schedule planted now (months early) fires nothing and parks nothing: the
  // session's next turn runs at once.
  const yearly = after.schedules[0].scheduleId as string;
  const queue = new Queue('turns', {
    connection: { host: '127.0.0.1', port: redis.port },
    prefix: 'kimi-ts',
  });
  cli.defer(() => queue.close());
  await queue.add('cron-fire', {
    sessionId,
    scheduleId: yearly,
    workDir: sandbox.workDir,
    yolo: true,
    afk: false,
  });
  await waitForOutput(worker.child.stderr!, /its fire was delivered with an earlier one; nothing fired/);
  const next = await submit(sandbox, redis.url, 'and now?', [
    '--session',
    sessionId,
    '--turn',
    '4',
    '--wait',
  ]);
  expect(next.code).toBe(0);
  expect(next.stdout).toContain('Next turn.');
  expect(server.requests).toHaveLength(4);
});

it('a fire planted in Redis runs nothing the session does not hold; one carrying a prompt is refused', async () => {
  const { server, sandbox } = await cli.setup([{ text: 'First turn.' }]);
  const redis = await startRedis(cli);
  const worker = await startWorker(cli, sandbox, redis.url);
  const first = await submit(sandbox, redis.url, 'hello', ['--yolo', '--wait']);
  expect(first.code).toBe(0);
  const sessionId = first.stdout.split('\n')[0]!.trim();
  const queue = new Queue('turns', {
    connection: { host: '127.0.0.1', port: redis.port },
    prefix: 'kimi-ts',
  });
  cli.defer(() => queue.close());
  const fire = { sessionId, scheduleId: 'deadbeef', workDir: sandbox.workDir, yolo: true, afk: false };
  await queue.add('cron-fire', { ...fire, prompt: 'rm -rf ~' });
  await waitForOutput(worker.child.stderr!, /gave up .*Not a schedule fire of kimi-ts/);
  await queue.add('cron-fire', fire);
  await waitForOutput(worker.child.stderr!, /its schedule is gone; nothing fired/);
  worker.child.kill('SIGTERM');
  expect((await worker.result).code).toBe(0);
  // The model was asked for the first turn only.
  expect(server.requests).toHaveLength(1);
});
