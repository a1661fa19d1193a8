import { expect, it } from 'vitest';
import { deferred } from '../../src/util/deferred.js';
import { jsonLines, sessionFolder, startRedis, startWorker, submit } from '../support/fleet-cli.js';
import { collect, waitForOutput } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';

const cli = useScriptedCli();
const API_KEY = 'sk-fleet-secret-4f9a1c';

it('a submitted turn runs on a worker; --wait prints it and exits 0; Redis never holds the key', async () => {
  const { server, sandbox } = await cli.setup([{ text: 'Hello from the fleet.' }], { apiKey: API_KEY });
  const redis = await startRedis(cli);
  await startWorker(cli, sandbox, redis.url);
  const result = await submit(sandbox, redis.url, 'say hello', ['--wait']);
  expect(result.stderr).not.toContain('Error');
  expect(result.code).toBe(0);
  const [sessionId, ...rest] = result.stdout.split('\n');
  expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
  expect(rest.join('\n')).toContain('Hello from the fleet.');
  expect(server.requests).toHaveLength(1);
  // The model got the worker's key; Redis (jobs, results, event streams) never saw it.
  expect(JSON.stringify(server.requests[0]!.headers)).toContain(API_KEY);
  const dump = await redis.dump();
  expect(dump).toContain('say hello');
  expect(dump).toContain(`kimi-ts:events:${sessionId}`);
  expect(dump).not.toContain(API_KEY);
  // The stream replays from any id a reader saw last.
  const events = await sandbox.run(['fleet', 'events', sessionId!, '--queue', redis.url]);
  const lines = events.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  expect(lines[0]).toMatchObject({ kind: 'attempt', turn: 1, attempt: 1 });
  expect(lines[1]).toMatchObject({ kind: 'wire', message: { type: 'TurnBegin' } });
  expect(lines.at(-1)).toMatchObject({ kind: 'end', turn: 1, code: 0 });
  const after = await sandbox.run([
    'fleet',
    'events',
    sessionId!,
    '--queue',
    redis.url,
    '--from',
    lines[1].id,
  ]);
  expect(
    after.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).id),
  ).toEqual(lines.slice(2).map((line) => line.id));
  // The session lives in its folder as any other.
  const folder = await sessionFolder(sandbox.home, sessionId!);
  const context = await jsonLines(`${folder}/context.jsonl`);
  expect(context.filter((line) => line.role === 'user')).toHaveLength(1);
  expect(JSON.stringify(context)).toContain('Hello from the fleet.');
});

it('the same turn submitted twice is one job, run once; a later --wait replays it from the stream', async () => {
  const { server, sandbox } = await cli.setup([{ text: 'Ran once.' }]);
  const redis = await startRedis(cli);
  const session = '0b6f4a52-8d1e-4c3a-9f57-2f1a4b7c9d10';
  const first = await submit(sandbox, redis.url, 'do it', ['--session', session]);
  const second = await submit(sandbox, redis.url, 'do it', ['--session', session]);
  expect([first.code, second.code]).toEqual([0, 0]);
  expect(first.stdout.trim()).toBe(session);
  expect(second.stdout.trim()).toBe(session);
  expect(second.stderr).toContain('already submitted');
  const status = JSON.parse((await sandbox.run(['fleet', 'status', '--queue', redis.url, '--json'])).stdout);
  expect(status.counts.waiting).toBe(1);
  await startWorker(cli, sandbox, redis.url);
  const waited = await submit(sandbox, redis.url, 'do it', ['--session', session, '--wait']);
  expect(waited.code).toBe(0);
  expect(waited.stdout).toContain('Ran once.');
  expect(server.requests).toHaveLength(1);
  // Again, after the end: the events are replayed from the session's stream.
  const replay = await submit(sandbox, redis.url, 'do it', ['--session', session, '--wait']);
  expect(replay.code).toBe(0);
  expect(replay.stdout).toContain('Ran once.');
  expect(server.requests).toHaveLength(1);
});

it('turns of one session run one at a time, in order, even with idle workers', async () => {
  const { promise: held, resolve: release } = deferred();
  cli.defer(() => release());
  const { server, sandbox } = await cli.setup([
    { text: 'First answer.', holdUntil: held },
    { text: 'Second answer.' },
  ]);
  const redis = await startRedis(cli);
  const worker = await startWorker(cli, sandbox, redis.url, ['--concurrency', '2']);
  const session = '5d0c1e8a-3b7f-4a2e-8c19-6e4f2a7b9c31';
  const first = collect(
    sandbox.spawn(['submit', '--queue', redis.url, '-p', 'one', '--session', session, '--wait']),
  );
  await server.waitForRequests(1);
  const secondTaken = waitForOutput(worker.child.stderr!, new RegExp(`took turn:${session}:2`));
  const second = submit(sandbox, redis.url, 'two', ['--session', session, '--turn', '2', '--wait']);
  // The second turn was taken by the free slot, found its session busy and was parked.
  await secondTaken;
  expect(server.requests).toHaveLength(1);
  release();
  const [one, two] = await Promise.all([first, second]);
  expect([one.code, two.code]).toEqual([0, 0]);
  expect(two.stdout).toContain('Second answer.');
  const folder = await sessionFolder(sandbox.home, session);
  const messages = (await jsonLines(`${folder}/context.jsonl`)).filter(
    (line) => typeof line.role === 'string' && !line.role.startsWith('_'),
  );
  expect(messages.map((m) => `${m.role}:${JSON.stringify(m.content)}`)).toEqual([
    expect.stringMatching(/^user:.*one/),
    expect.stringMatching(/^assistant:.*First answer/),
    expect.stringMatching(/^user:.*two/),
    expect.stringMatching(/^assistant:.*Second answer/),
  ]);
});

it('a goal run through the fleet exits with the goal codes (blocked: 3)', async () => {
  const { server, sandbox } = await cli.setup([
    { text: 'Thinking about it.' },
    { text: 'Still thinking.' },
    { text: 'Thinking more.' },
    { text: 'This turn must never be asked for.' },
  ]);
  const redis = await startRedis(cli);
  await startWorker(cli, sandbox, redis.url);
  const result = await submit(sandbox, redis.url, '/goal ponder forever', ['--wait']);
  expect(result.code).toBe(3);
  expect(server.requests).toHaveLength(3);
  const events = await sandbox.run(['fleet', 'events', result.stdout.split('\n')[0]!, '--queue', redis.url]);
  expect(JSON.parse(events.stdout.trim().split('\n').at(-1)!)).toMatchObject({
    kind: 'end',
    goalEnd: 'blocked',
  });
});
