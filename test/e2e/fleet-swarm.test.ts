import { existsSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { expect, it } from 'vitest';
import { deferred } from '../../src/util/deferred.js';
import { jsonLines, sessionFolder, startRedis, startWorker } from '../support/fleet-cli.js';
import { git } from '../support/git.js';
import { descendantsOf, waitForProcess } from '../support/processes.js';
import { type CliSandbox, collect, waitForOutput } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import type { ScriptedTurn } from '../support/scripted-llm-server.js';

const cli = useScriptedCli();

interface ApiMessage {
  role: string;
  content?: unknown;
}

const textOf = (m: ApiMessage | undefined): string =>
  m === undefined ? '' : typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? '');

const ROOT_PROMPT = 'Run the swarm over the three parts.';
const ITEMS = ['alpha', 'beta', 'gamma'];

/** The root's AgentSwarm call: the same call each time its step is asked for (the redone step too). */
const swarmCall = (isolation: 'none' | 'worktree', maxConcurrency?: number): ScriptedTurn => ({
  toolCalls: [
    {
      id: 'swarm-1',
      name: 'AgentSwarm',
      args: {
        description: 'Parts',
        prompt_template: 'Task {{item}}: look at it.',
        items: ITEMS,
        isolation,
        ...(maxConcurrency ? { max_concurrency: maxConcurrency } : {}),
      },
    },
  ],
});

/** A subagent's report, long enough to need no continuation. */
const reportFor = (item: string) => `Report for ${item}: ${'all is well with this part. '.repeat(10)}`;

/** The item a subagent's request is about, or null for the root's. */
function itemOf(body: unknown): string | null {
  const messages = (body as { messages: ApiMessage[] }).messages;
  const first = textOf(messages.find((m) => m.role === 'user'));
  const match = /^Task (\w+):/.exec(first);
  return match ? (match[1] as string) : null;
}

function lastRole(body: unknown): string | undefined {
  return (body as { messages: ApiMessage[] }).messages.at(-1)?.role;
}

async function gitRepo(sandbox: CliSandbox): Promise<void> {
  git(sandbox.workDir, 'init', '-q', '-b', 'main');
  await writeFile(join(sandbox.workDir, 'README.md'), 'the project\n');
  git(sandbox.workDir, 'add', '-A');
  git(
    sandbox.workDir,
    '-c',
    'user.name=P',
    '-c',
    'user.email=p@example.invalid',
    'commit',
    '-q',
    '-m',
    'first',
  );
}

/** A promise the test opens itself (after the test at the latest). */
function gate(): { promise: Promise<void>; open: () => void } {
  const { promise, resolve } = deferred();
  cli.defer(() => resolve());
  return { promise, open: () => resolve() };
}

async function fleetStatus(sandbox: CliSandbox, url: string) {
  const result = await sandbox.run(['fleet', 'status', '--queue', url, '--json']);
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as {
    swarms: { jobId: string; sessionId: string; turn: number; children: number }[];
    items: { sessionId: string; index: number; worker: string }[];
    running: unknown[];
  };
}

it('a 3-item swarm in a fleet turn: its items are child jobs run on both workers, the turn resumes with their three results', async () => {
  const held = gate();
  const { server, sandbox } = await cli.setup([]);
  await gitRepo(sandbox);
  server.answerBy((body): ScriptedTurn => {
    const item = itemOf(body);
    if (item !== null) return { text: reportFor(item), holdUntil: held.promise };
    return lastRole(body) === 'tool' ? { text: 'All three parts are done.' } : swarmCall('worktree');
  });
  const redis = await startRedis(cli);
  const workers = [
    await startWorker(cli, sandbox, redis.url, ['--label', 'one']),
    await startWorker(cli, sandbox, redis.url, ['--label', 'two']),
  ];
  const submitted = collect(
    sandbox.spawn(['submit', '--queue', redis.url, '-p', ROOT_PROMPT, '--wait', '--yolo']),
  );
  // The root's call, then two items at once: one on each worker (each takes one job at a time).
  await server.waitForRequests(3);
  const status = await fleetStatus(sandbox, redis.url);
  expect(status.swarms).toHaveLength(1);
  expect(status.swarms[0]!.children).toBe(3);
  expect(status.running).toEqual([]);
  expect(new Set(status.items.map((item) => item.worker)).size).toBe(2);
  expect(status.items.map((item) => item.worker).sort()).toEqual([
    expect.stringMatching(/^one@/),
    expect.stringMatching(/^two@/),
  ]);
  const shown = await sandbox.run(['fleet', 'status', '--queue', redis.url]);
  expect(shown.stdout).toMatch(/waiting for its swarm: \S+ turn 1, 3 items still to end \(no worker held\)/);
  expect(shown.stdout).toMatch(/swarm item \d of \S+ turn 1 on one@/);
  expect(shown.stdout).toMatch(/swarm item \d of \S+ turn 1 on two@/);
  held.open();
  const result = await submitted;
  expect(result.code).toBe(0);
  expect(result.stdout).toContain('All three parts are done.');
  expect(result.stderr).toMatch(/Waiting for the swarm: 3 items of swarm s[0-9a-f]{8}/);
  expect(result.stderr).toMatch(/The swarm's items have ended; the turn goes on/);
  // The redone step found its children's ends: the tool result the model read lists all three.
  const last = server.requests.at(-1)!.body as { messages: (ApiMessage & { tool_call_id?: string })[] };
  const toolResult = textOf(last.messages.find((m) => m.role === 'tool'));
  for (const item of ITEMS) {
    expect(toolResult).toMatch(new RegExp(`item=\\\\?"${item}\\\\?" outcome=\\\\?"completed\\\\?"`));
    expect(toolResult).toContain(`Report for ${item}`);
  }
  expect(toolResult).toContain('completed: 3');
  // The items' steps are in the session's stream, under the swarm's call, each under its agent.
  const sessionOf = result.stdout.split('\n')[0]!;
  const stream = await sandbox.run(['fleet', 'events', sessionOf, '--queue', redis.url]);
  const subagentEvents = stream.stdout
    .split('\n')
    .filter(Boolean)
    .map(
      (line) =>
        JSON.parse(line) as { kind: string; message?: { type: string; payload: Record<string, unknown> } },
    )
    .filter((entry) => entry.kind === 'wire' && entry.message?.type === 'SubagentEvent')
    .map((entry) => entry.message!.payload);
  expect(new Set(subagentEvents.map((event) => event.parent_tool_call_id))).toEqual(new Set(['swarm-1']));
  expect(new Set(subagentEvents.map((event) => event.agent_id)).size).toBe(3);
  expect(JSON.stringify(subagentEvents)).toContain('Report for beta');
  // Items ran on both workers.
  for (const worker of workers) {
    worker.child.kill('SIGTERM');
    expect((await worker.result).stderr).toMatch(/swarm:\S+: item \d completed/);
  }
  // Each step committed once: the swarm's call and its result, then the answer.
  const sessionId = result.stdout.split('\n')[0]!;
  const context = (
    await jsonLines(join(await sessionFolder(sandbox.home, sessionId), 'context.jsonl'))
  ).filter((line) => typeof line.role === 'string' && !line.role.startsWith('_'));
  expect(context.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  // No worktree left; the items changed nothing, so no branch either.
  expect(git(sandbox.workDir, 'worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1);
  const left = join(sandbox.home, 'worktrees', sessionId);
  if (existsSync(left)) expect(await readdir(left)).toEqual([]);
});

it('max_concurrency holds across the fleet: with 1, the items run one after the other whichever workers are free', async () => {
  const gates = new Map(ITEMS.map((item) => [item, gate()]));
  const { server, sandbox } = await cli.setup([]);
  server.answerBy((body): ScriptedTurn => {
    const item = itemOf(body);
    if (item !== null) return { text: reportFor(item), holdUntil: gates.get(item)!.promise };
    return lastRole(body) === 'tool' ? { text: 'One by one.' } : swarmCall('none', 1);
  });
  const redis = await startRedis(cli);
  await startWorker(cli, sandbox, redis.url);
  await startWorker(cli, sandbox, redis.url);
  const submitted = collect(
    sandbox.spawn(['submit', '--queue', redis.url, '-p', ROOT_PROMPT, '--wait', '--yolo']),
  );
  for (const [n, item] of ITEMS.entries()) {
    // The root's call, then one item at a time: the next is queued only when this one ends.
    await server.waitForRequests(2 + n);
    const status = await fleetStatus(sandbox, redis.url);
    expect(status.items).toHaveLength(1);
    expect(status.items[0]!.index).toBe(n + 1);
    expect(server.requests.filter((r) => itemOf(r.body) !== null)).toHaveLength(n + 1);
    gates.get(item)!.open();
  }
  const result = await submitted;
  expect(result.code).toBe(0);
  const last = server.requests.at(-1)!.body as { messages: ApiMessage[] };
  const report = textOf(last.messages.find((m) => m.role === 'tool'));
  expect(report).toContain('completed: 3');
  expect(report).toMatch(/max_concurrency=\\?"1\\?"/);
});

it('a worker SIGKILLed mid-item: another worker takes the item over and the turn still ends with every result', async () => {
  const held = gate();
  const { server, sandbox } = await cli.setup([]);
  await gitRepo(sandbox);
  const asked = new Map<string, number>();
  server.answerBy((body): ScriptedTurn => {
    const item = itemOf(body);
    if (item !== null) {
      // Each start of an item writes its file; its first start waits for the gate (a takeover's does not).
      if (lastRole(body) === 'tool') return { text: reportFor(`${item} after ${asked.get(item)} start(s)`) };
      const starts = (asked.get(item) ?? 0) + 1;
      asked.set(item, starts);
      return {
        toolCalls: [
          {
            id: `w-${item}-${starts}`,
            name: 'WriteFile',
            args: { path: `${item}.txt`, content: `${item}\n` },
          },
        ],
        ...(starts === 1 ? { holdAfterToolCalls: held.promise } : {}),
      };
    }
    return lastRole(body) === 'tool' ? { text: 'Done after the takeover.' } : swarmCall('worktree');
  });
  const redis = await startRedis(cli);
  const doomed = await startWorker(cli, sandbox, redis.url, ['--label', 'doomed', '--lease-ms', '2000']);
  await startWorker(cli, sandbox, redis.url, ['--label', 'survivor', '--lease-ms', '2000']);
  const submitted = collect(
    sandbox.spawn(['submit', '--queue', redis.url, '-p', ROOT_PROMPT, '--wait', '--yolo']),
  );
  await server.waitForRequests(3);
  const before = await fleetStatus(sandbox, redis.url);
  const doomedItem = before.items.find((item) => item.worker.startsWith('doomed@'));
  expect(doomedItem).toBeDefined();
  doomed.child.kill('SIGKILL');
  await doomed.result;
  held.open();
  const result = await submitted;
  expect(result.code).toBe(0);
  expect(result.stdout).toContain('Done after the takeover.');
  const last = server.requests.at(-1)!.body as { messages: ApiMessage[] };
  const toolResult = textOf(last.messages.find((m) => m.role === 'tool'));
  expect(toolResult).toContain('completed: 3');
  // The killed worker's item was run again, by the survivor.
  const killedItem = ITEMS[doomedItem!.index - 1]!;
  expect(asked.get(killedItem)).toBe(2);
  expect(toolResult).toContain(`Report for ${killedItem} after 2 start(s)`);
  for (const other of ITEMS.filter((item) => item !== killedItem))
    expect(toolResult).toContain(`Report for ${other} after 1 start(s)`);
  // The takeover worked on a branch of its own; the dead attempt's worktree is gone (committed on
  // its branch when the turn's session opened again here): no worktree is left.
  expect(toolResult).toMatch(
    new RegExp(
      `item=\\\\?"${killedItem}\\\\?" outcome=\\\\?"completed\\\\?" branch=\\\\?"kimi-ts/s[0-9a-f]{8}r2/${doomedItem!.index}`,
    ),
  );
  expect(git(sandbox.workDir, 'worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1);
  const sessionId = result.stdout.split('\n')[0]!;
  const left = join(sandbox.home, 'worktrees', sessionId);
  if (existsSync(left)) expect(await readdir(left)).toEqual([]);
});

it('a cancel mid-swarm reaches every running item and the turn: nothing left running, no worktree left', async () => {
  const { server, sandbox } = await cli.setup([]);
  await gitRepo(sandbox);
  server.answerBy((body): ScriptedTurn => {
    const item = itemOf(body);
    if (item !== null)
      return {
        toolCalls: [
          { id: `sleep-${item}`, name: 'Shell', args: { command: `sleep 29${ITEMS.indexOf(item)}` } },
        ],
      };
    return lastRole(body) === 'tool' ? { text: 'never' } : swarmCall('worktree');
  });
  const redis = await startRedis(cli);
  const workers = [
    await startWorker(cli, sandbox, redis.url, ['--label', 'one']),
    await startWorker(cli, sandbox, redis.url, ['--label', 'two']),
  ];
  const submitted = collect(
    sandbox.spawn(['submit', '--queue', redis.url, '-p', ROOT_PROMPT, '--wait', '--yolo']),
  );
  const sleeping = (pid: number) => descendantsOf(pid).some((line) => /sleep 29\d/.test(line));
  for (const worker of workers)
    await waitForProcess(() => (sleeping(worker.child.pid!) ? true : null), 'an item to run its command');
  const sessionId = (await fleetStatus(sandbox, redis.url)).swarms[0]!.sessionId;
  const cancelled = await sandbox.run(['fleet', 'cancel', sessionId, '--queue', redis.url]);
  expect(cancelled.code).toBe(0);
  const result = await submitted;
  expect(result.code).toBe(1);
  expect(result.stderr).toContain('Interrupted by user');
  for (const worker of workers) expect(descendantsOf(worker.child.pid!)).toEqual([]);
  // The third item never started, or stopped at once: no model call beyond the two running ones' first.
  const status = await fleetStatus(sandbox, redis.url);
  expect(status.swarms).toEqual([]);
  expect(status.items).toEqual([]);
  expect(git(sandbox.workDir, 'worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1);
  const left = join(sandbox.home, 'worktrees', sessionId);
  if (existsSync(left)) expect(await readdir(left)).toEqual([]);
  // The root's step was not redone with a result after the cancel.
  expect(server.requests.filter((r) => itemOf(r.body) === null && lastRole(r.body) === 'tool')).toEqual([]);
});

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

it('a redone step that asks for another swarm is not fed the first one’s results: it gets its own children', async () => {
  const { server, sandbox } = await cli.setup([]);
  let rootAsked = 0;
  server.answerBy((body): ScriptedTurn => {
    const item = itemOf(body);
    if (item !== null) return { text: reportFor(item) };
    if (lastRole(body) === 'tool') return { text: 'Done with the second swarm.' };
    rootAsked += 1;
    // The step is redone after the first swarm's children: this time the model asks for other items.
    if (rootAsked === 1) return swarmCall('none');
    return {
      toolCalls: [
        {
          id: 'swarm-2',
          name: 'AgentSwarm',
          args: {
            description: 'Other parts',
            prompt_template: 'Task {{item}}: look at it.',
            items: ['delta', 'epsilon'],
          },
        },
      ],
    };
  });
  const redis = await startRedis(cli);
  await startWorker(cli, sandbox, redis.url);
  const result = await collect(
    sandbox.spawn(['submit', '--queue', redis.url, '-p', ROOT_PROMPT, '--wait', '--yolo']),
  );
  expect(result.code).toBe(0);
  expect(result.stdout).toContain('Done with the second swarm.');
  const last = server.requests.at(-1)!.body as { messages: ApiMessage[] };
  const toolResult = textOf(last.messages.find((m) => m.role === 'tool'));
  expect(toolResult).toContain('completed: 2');
  expect(toolResult).toContain('Report for delta');
  expect(toolResult).toContain('Report for epsilon');
  expect(toolResult).not.toContain('alpha');
  // Both swarms ran their items: 3, then 2.
  expect(server.requests.filter((r) => itemOf(r.body) !== null)).toHaveLength(5);
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
