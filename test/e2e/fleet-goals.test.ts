import { expect, it } from 'vitest';
import { deferred } from '../../src/util/deferred.js';
import { startRedis, startWorker } from '../support/fleet-cli.js';
import { collect, waitForOutput } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';

const cli = useScriptedCli();

type Entry = { kind: string; turn: number; worker?: string; continues?: number; goalEnd?: string };

it("a goal's next step is the next job: it moves to another worker, and --wait follows it to the goal's end", async () => {
  const { promise: held, resolve: release } = deferred();
  cli.defer(() => release());
  const { server, sandbox } = await cli.setup([
    { text: 'Step one.', holdUntil: held },
    { toolCalls: [{ id: 'call-goal-1', name: 'UpdateGoal', args: { status: 'complete' } }] },
    { text: 'Done.' },
  ]);
  const redis = await startRedis(cli);
  const first = await startWorker(cli, sandbox, redis.url, ['--label', 'first']);
  const waiting = sandbox.spawn(['submit', '--queue', redis.url, '-p', '/goal finish the job', '--wait']);
  const submitted = collect(waiting);
  const sessionId = (await waitForOutput(waiting.stdout!, /\n/)).trim();
  // Turn 1 set the goal and ended; its first step is turn 2, a job of its own, held at the model.
  await waitForOutput(first.child.stderr!, new RegExp(`took turn:${sessionId}:2\\b`));
  // The first worker drains (turn 2 finishes there, nothing new is taken); the second takes step 2.
  first.child.kill('SIGTERM');
  await startWorker(cli, sandbox, redis.url, ['--label', 'second']);
  release();
  const result = await submitted;
  expect(result.code).toBe(0);
  expect(result.stdout).toContain('Step one.');
  expect(result.stdout).toContain('Done.');
  expect((await first.result).code).toBe(0);
  const events = await sandbox.run(['fleet', 'events', sessionId, '--queue', redis.url]);
  const entries = events.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Entry);
  const workerOf = (turn: number) => entries.find((e) => e.kind === 'attempt' && e.turn === turn)?.worker;
  expect(workerOf(2)).toMatch(/^first@/);
  expect(workerOf(3)).toMatch(/^second@/);
  const ends = entries.filter((e) => e.kind === 'end');
  expect(ends).toEqual([
    expect.objectContaining({ turn: 1, code: 0, continues: 2 }),
    expect.objectContaining({ turn: 2, code: 0, continues: 3 }),
    expect.objectContaining({ turn: 3, code: 0, goalEnd: 'complete' }),
  ]);
  expect(server.requests).toHaveLength(3);
  // Each step opened with the goal's reminder, not the typed `/goal` again.
  expect(JSON.stringify(server.requests[1]?.body)).not.toContain('(the goal goes on)');
});

it('the no-progress breaker holds across jobs: three idle steps block the goal (exit 3)', async () => {
  const { server, sandbox } = await cli.setup([
    { toolCalls: [{ id: 'call-ls-1', name: 'Shell', args: { command: 'ls' } }] },
    { text: 'Listed.' },
    { toolCalls: [{ id: 'call-ls-2', name: 'Shell', args: { command: 'ls' } }] },
    { text: 'Listed again.' },
    { toolCalls: [{ id: 'call-ls-3', name: 'Shell', args: { command: 'ls' } }] },
    { text: 'And again.' },
    { toolCalls: [{ id: 'call-ls-4', name: 'Shell', args: { command: 'ls' } }] },
    { text: 'Never asked: the goal is blocked by now.' },
  ]);
  const redis = await startRedis(cli);
  await startWorker(cli, sandbox, redis.url);
  await startWorker(cli, sandbox, redis.url);
  const result = await sandbox.run([
    'submit',
    '--queue',
    redis.url,
    '-p',
    '/goal list forever',
    '--yolo',
    '--wait',
  ]);
  expect(result.code).toBe(3);
  // Step 1's `ls` is new; steps 2, 3 and 4 see the same output again (in other jobs): blocked after 4.
  expect(server.requests).toHaveLength(8);
  const sessionId = result.stdout.split('\n')[0]!;
  const events = await sandbox.run(['fleet', 'events', sessionId, '--queue', redis.url]);
  const ends = events.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Entry)
    .filter((e) => e.kind === 'end');
  expect(ends.map((e) => e.turn)).toEqual([1, 2, 3, 4, 5]);
  expect(ends.at(-1)).toMatchObject({ goalEnd: 'blocked' });
});

it('a cancel during a goal step pauses the goal: no next step is queued, --wait exits 6', async () => {
  const { promise: held, resolve: release } = deferred();
  cli.defer(() => release());
  const { server, sandbox } = await cli.setup([
    { toolCalls: [{ id: 'call-ls-1', name: 'Shell', args: { command: 'ls' } }] },
    { text: 'Step one done.' },
    { text: 'held in step two', holdUntil: held },
    { text: 'Never asked: the goal is paused.' },
  ]);
  const redis = await startRedis(cli);
  await startWorker(cli, sandbox, redis.url);
  const waiting = sandbox.spawn([
    'submit',
    '--queue',
    redis.url,
    '-p',
    '/goal keep going',
    '--yolo',
    '--wait',
  ]);
  const submitted = collect(waiting);
  const sessionId = (await waitForOutput(waiting.stdout!, /\n/)).trim();
  await server.waitForRequests(3);
  const cancelled = await sandbox.run(['fleet', 'cancel', sessionId, '--queue', redis.url]);
  expect(cancelled.code).toBe(0);
  const result = await submitted;
  expect(result.code).toBe(6);
  expect(server.requests).toHaveLength(3);
  const status = JSON.parse((await sandbox.run(['fleet', 'status', '--queue', redis.url, '--json'])).stdout);
  expect(status.counts).toMatchObject({ waiting: 0, running: 0, delayed: 0 });
  const events = await sandbox.run(['fleet', 'events', sessionId, '--queue', redis.url]);
  const last = JSON.parse(events.stdout.trim().split('\n').at(-1)!) as Entry;
  expect(last).toMatchObject({ kind: 'end', turn: 3, goalEnd: 'paused' });
});
