import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { expect, it } from 'vitest';
import { startRedis, startWorker } from '../support/fleet-cli.js';
import {
  type ApiMessage,
  fleetStatus,
  gate as gateOf,
  gitRepo,
  ITEMS,
  itemOf,
  lastRole,
  ROOT_PROMPT,
  reportFor,
  swarmCall,
  textOf,
} from '../support/fleet-swarm.js';
import { git } from '../support/git.js';
import { collect, waitForOutput } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import type { ScriptedTurn } from '../support/scripted-llm-server.js';

const cli = useScriptedCli();
const gate = () => gateOf(cli);

it('swarm items planted in Redis (another session, a path, not an item) fail without touching anything', async () => {
  const { server, sandbox } = await cli.setup([]);
  const redis = await startRedis(cli);
  const queue = new Queue('turns', {
    connection: { host: '127.0.0.1', port: redis.port },
    prefix: 'kimi-ts',
  });
  cli.defer(() => queue.close());
  const worker = await startWorker(cli, sandbox, redis.url);
  const other = '66666666-7777-4888-9999-aaaaaaaaaaaa';
  const swarm = 'a'.repeat(32);
  const planted = [
    // Names another session, with no turn of it as its parent.
    { data: { sessionId: other, turn: 1, swarm, index: 1 }, jobId: `swarm:${other}:${swarm}-1` },
    // Carries a path (and a prompt) of its own.
    {
      data: { sessionId: other, turn: 1, swarm, index: 2, workDir: '/etc', prompt: 'rm -rf /' },
      jobId: `swarm:${other}:${swarm}-2`,
    },
    // Not an item at all.
    { data: { hello: 'world' }, jobId: 'swarm:junk:1' },
  ];
  const allFailed = waitForOutput(
    worker.child.stderr!,
    new RegExp(planted.map((p) => `(?=[\\s\\S]*gave up ${p.jobId.replaceAll('-', '\\-')})`).join('')),
  );
  for (const { data, jobId } of planted) await queue.add('swarm-item', data, { jobId });
  await allFailed;
  const reasons = (await queue.getFailed()).map((job) => [job.id, job.failedReason]).sort();
  expect(reasons).toEqual(
    [
      [`swarm:${other}:${swarm}-1`, 'Not a child of its turn: nothing was run.'],
      [`swarm:${other}:${swarm}-2`, 'Not a swarm item of kimi-ts.'],
      ['swarm:junk:1', 'Not a swarm item of kimi-ts.'],
    ].sort(),
  );
  expect(server.requests).toHaveLength(0);
  expect(existsSync(join(sandbox.home, 'sessions'))).toBe(false);
  expect(existsSync(join(sandbox.home, 'worktrees'))).toBe(false);
});

it('a git-remote session: each item runs on its worker in a worktree of the session and comes back as its branch on the remote', async () => {
  const { server, sandbox } = await cli.setup([]);
  const remote = join(sandbox.root, 'remote.git');
  const seed = join(sandbox.root, 'seed');
  git(sandbox.root, 'init', '-q', '--bare', '-b', 'main', remote);
  git(sandbox.root, 'init', '-q', '-b', 'main', seed);
  await writeFile(join(seed, 'README.md'), '# the project\n');
  git(seed, 'add', '-A');
  git(seed, '-c', 'user.name=P', '-c', 'user.email=p@example.invalid', 'commit', '-q', '-m', 'base');
  git(seed, 'push', '-q', remote, 'main');
  server.answerBy((body): ScriptedTurn => {
    const item = itemOf(body);
    if (item !== null)
      return lastRole(body) === 'tool'
        ? { text: reportFor(item) }
        : {
            toolCalls: [
              { id: `w-${item}`, name: 'WriteFile', args: { path: `${item}.txt`, content: `${item}\n` } },
            ],
          };
    return lastRole(body) === 'tool' ? { text: 'The parts are on their branches.' } : swarmCall('none');
  });
  const redis = await startRedis(cli);
  const homeB = join(sandbox.root, 'home-b');
  await startWorker(cli, sandbox, redis.url, ['--label', 'a']);
  await startWorker(cli, sandbox, redis.url, ['--label', 'b'], { KIMI_TS_HOME: homeB });
  const result = await collect(
    sandbox.spawn(['submit', '--queue', redis.url, '-p', ROOT_PROMPT, '--repo', remote, '--yolo', '--wait']),
  );
  expect(result.code).toBe(0);
  expect(result.stdout).toContain('The parts are on their branches.');
  const branches = git(remote, 'branch', '--list', 'kimi-ts/s*', '--format=%(refname:short)')
    .trim()
    .split('\n');
  expect(branches).toHaveLength(3);
  for (const [i, item] of ITEMS.entries()) {
    const branch = branches.find((b) => b.endsWith(`/${i + 1}`))!;
    expect(git(remote, 'show', `${branch}:${item}.txt`)).toBe(`${item}\n`);
    // On top of the base, nothing else.
    expect(git(remote, 'rev-parse', `${branch}~1`)).toBe(git(remote, 'rev-parse', 'main'));
  }
  const last = server.requests.at(-1)!.body as { messages: ApiMessage[] };
  expect(textOf(last.messages.find((m) => m.role === 'tool'))).toContain('completed: 3');
});

it('with --ask, an approval an item needs parks the item (no worker held) until `fleet approve`; its redo finds the answer', async () => {
  const { server, sandbox } = await cli.setup([]);
  await gitRepo(sandbox);
  server.answerBy((body): ScriptedTurn => {
    const item = itemOf(body);
    if (item !== null)
      return lastRole(body) === 'tool'
        ? { text: reportFor(item) }
        : {
            toolCalls: [
              { id: `w-${item}`, name: 'WriteFile', args: { path: `${item}.txt`, content: `${item}\n` } },
            ],
          };
    return lastRole(body) === 'tool' ? { text: 'Reported.' } : swarmCall('worktree');
  });
  const redis = await startRedis(cli);
  await startWorker(cli, sandbox, redis.url);
  const child = sandbox.spawn(['submit', '--queue', redis.url, '-p', ROOT_PROMPT, '--ask', '--wait']);
  const submitted = collect(child);
  const sessionLine = waitForOutput(child.stdout!, /^[0-9a-f-]{36}$/m);
  // Each item parks for its approval: the one worker goes on to the next item meanwhile.
  await waitForOutput(
    child.stderr!,
    /Waiting for an approval[\s\S]*Waiting for an approval[\s\S]*Waiting for an approval/,
  );
  const sessionId = (await sessionLine).match(/^[0-9a-f-]{36}$/m)![0];
  const status = await fleetStatus(sandbox, redis.url);
  expect(status.items).toEqual([]);
  expect(status.swarms[0]!.children).toBe(3);
  for (const item of ITEMS) expect(existsSync(join(sandbox.workDir, `${item}.txt`))).toBe(false);
  const approved = await sandbox.run(['fleet', 'approve', sessionId, '--queue', redis.url, '--approve']);
  expect(approved.code).toBe(0);
  const result = await submitted;
  expect(result.code).toBe(0);
  expect(result.stdout).toContain('Reported.');
  const last = server.requests.at(-1)!.body as { messages: ApiMessage[] };
  const report = textOf(last.messages.find((m) => m.role === 'tool')).replaceAll('\\"', '"');
  expect(report).toContain('completed: 3');
  // Each redo wrote its file on its own branch, once approved.
  const branches = [...report.matchAll(/branch="(kimi-ts\/s[0-9a-f]{8}r?\d*\/\d)"/g)].map((m) => m[1]!);
  expect(branches).toHaveLength(3);
  for (const [i, item] of ITEMS.entries()) {
    const branch = branches.find((b) => b.endsWith(`/${i + 1}`))!;
    expect(git(sandbox.workDir, 'show', `${branch}:${item}.txt`)).toBe(`${item}\n`);
  }
  expect(git(sandbox.workDir, 'worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1);
});

it('a cancel while items are parked for approvals wakes them: they end at once, the turn ends, nothing waits', async () => {
  const { server, sandbox } = await cli.setup([]);
  server.answerBy((body): ScriptedTurn => {
    const item = itemOf(body);
    if (item !== null)
      return lastRole(body) === 'tool'
        ? { text: reportFor(item) }
        : {
            toolCalls: [
              { id: `w-${item}`, name: 'WriteFile', args: { path: `${item}.txt`, content: `${item}\n` } },
            ],
          };
    return lastRole(body) === 'tool' ? { text: 'never' } : swarmCall('none');
  });
  const redis = await startRedis(cli);
  await startWorker(cli, sandbox, redis.url);
  const child = sandbox.spawn(['submit', '--queue', redis.url, '-p', ROOT_PROMPT, '--ask', '--wait']);
  const submitted = collect(child);
  const sessionLine = waitForOutput(child.stdout!, /^[0-9a-f-]{36}$/m);
  await waitForOutput(
    child.stderr!,
    /Waiting for an approval[\s\S]*Waiting for an approval[\s\S]*Waiting for an approval/,
  );
  const sessionId = (await sessionLine).match(/^[0-9a-f-]{36}$/m)![0];
  expect(Number(await redis.cli('HLEN', `kimi-ts:approvals:${sessionId}`))).toBe(3);
  const cancelled = await sandbox.run(['fleet', 'cancel', sessionId, '--queue', redis.url]);
  expect(cancelled.code).toBe(0);
  const result = await submitted;
  expect(result.code).toBe(1);
  expect(result.stderr).toContain('Interrupted by user');
  const status = await fleetStatus(sandbox, redis.url);
  expect(status.swarms).toEqual([]);
  expect(status.items).toEqual([]);
  expect(Number(await redis.cli('HLEN', `kimi-ts:approvals:${sessionId}`))).toBe(0);
  for (const item of ITEMS) expect(existsSync(join(sandbox.workDir, `${item}.txt`))).toBe(false);
});

it('without --ask or --yolo (afk, as print mode): an item’s write is decided by the modes, never left waiting', async () => {
  const { server, sandbox } = await cli.setup([]);
  server.answerBy((body): ScriptedTurn => {
    const item = itemOf(body);
    if (item !== null)
      return lastRole(body) === 'tool'
        ? { text: reportFor(item) }
        : {
            toolCalls: [
              { id: `w-${item}`, name: 'WriteFile', args: { path: `${item}.txt`, content: `${item}\n` } },
            ],
          };
    return lastRole(body) === 'tool' ? { text: 'Reported.' } : swarmCall('none');
  });
  const redis = await startRedis(cli);
  await startWorker(cli, sandbox, redis.url);
  const result = await collect(sandbox.spawn(['submit', '--queue', redis.url, '-p', ROOT_PROMPT, '--wait']));
  expect(result.code).toBe(0);
  expect(result.stderr).not.toContain('Waiting for an approval');
  const last = server.requests.at(-1)!.body as { messages: ApiMessage[] };
  expect(textOf(last.messages.find((m) => m.role === 'tool'))).toContain('completed: 3');
  // What a local afk run does with the same write: the same outcome for every item.
  const written = ITEMS.map((item) => existsSync(join(sandbox.workDir, `${item}.txt`)));
  expect(new Set(written).size).toBe(1);
});

it('an item whose job fails (its swarm record gone from Redis) is a failed item in the result, not a lost turn', async () => {
  const held = gate();
  const { server, sandbox } = await cli.setup([]);
  server.answerBy((body): ScriptedTurn => {
    const item = itemOf(body);
    if (item !== null) return { text: reportFor(item), holdUntil: held.promise };
    return lastRole(body) === 'tool' ? { text: 'Reported what came back.' } : swarmCall('none');
  });
  const redis = await startRedis(cli);
  const worker = await startWorker(cli, sandbox, redis.url);
  const submitted = collect(
    sandbox.spawn(['submit', '--queue', redis.url, '-p', ROOT_PROMPT, '--wait', '--yolo']),
  );
  // The one worker runs item 1; items 2 and 3 wait. Their swarm's record is removed meanwhile.
  await server.waitForRequests(2);
  const records = (await redis.cli('--scan', '--pattern', 'kimi-ts:swarm:*'))
    .trim()
    .split('\n')
    .filter((key) => !key.endsWith(':next'));
  expect(records).toHaveLength(1);
  await redis.cli('DEL', records[0]!);
  const failedTwo = waitForOutput(worker.child.stderr!, /gave up swarm:\S+-2: No swarm of this session/);
  held.open();
  await failedTwo;
  const result = await submitted;
  expect(result.code).toBe(0);
  expect(result.stdout).toContain('Reported what came back.');
  const last = server.requests.at(-1)!.body as { messages: ApiMessage[] };
  const toolResult = textOf(last.messages.find((m) => m.role === 'tool'));
  expect(toolResult).toContain('completed: 1, failed: 2');
  expect(toolResult).toContain('Its job failed: No swarm of this session handed out this item');
  expect(toolResult).toContain('Report for alpha');
});
