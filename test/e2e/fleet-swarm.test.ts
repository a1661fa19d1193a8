import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { jsonLines, sessionFolder, startRedis, startWorker } from '../support/fleet-cli.js';
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
import { descendantsOf, waitForProcess } from '../support/processes.js';
import { collect } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import type { ScriptedTurn } from '../support/scripted-llm-server.js';

const cli = useScriptedCli();
const gate = () => gateOf(cli);

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
