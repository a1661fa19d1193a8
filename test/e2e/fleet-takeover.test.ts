import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { deferred } from '../../src/util/deferred.js';
import { jsonLines, sessionFolder, startRedis, startWorker } from '../support/fleet-cli.js';
import { descendantsOf, waitForProcess } from '../support/processes.js';
import { collect, waitForOutput } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';

const cli = useScriptedCli();

/** A promise the test resolves itself (after the test at the latest, before the server closes). */
function gate(): { promise: Promise<void>; open: () => void } {
  const { promise, resolve } = deferred();
  cli.defer(() => resolve());
  return { promise, open: () => resolve() };
}

const readNotes = { toolCalls: [{ id: 'call-read-1', name: 'ReadFile', args: { path: 'notes.txt' } }] };

/** What the session's files say: the messages of the context, the events of the wire. */
async function history(home: string, sessionId: string) {
  const folder = await sessionFolder(home, sessionId);
  const context = (await jsonLines(join(folder, 'context.jsonl'))).filter(
    (line) => typeof line.role === 'string' && !line.role.startsWith('_'),
  );
  const wire = (await jsonLines(join(folder, 'wire.jsonl')))
    .map((line) => line.message as { type: string; payload: Record<string, unknown> } | undefined)
    .filter((message) => message !== undefined);
  return { context, wire };
}

it('a worker SIGKILLed mid-step: another takes the turn over from its last committed step, no step twice', async () => {
  const held = gate();
  const { server, sandbox } = await cli.setup([
    readNotes,
    // The second step of the first worker never gets its answer: the worker is killed meanwhile.
    { text: 'never committed', holdUntil: held.promise },
    { text: 'Finished after the takeover.' },
  ]);
  await writeFile(join(sandbox.workDir, 'notes.txt'), 'the notes\n');
  const redis = await startRedis(cli);
  const first = await startWorker(cli, sandbox, redis.url, ['--lease-ms', '2000', '--label', 'first']);
  const waiting = sandbox.spawn(['submit', '--queue', redis.url, '-p', 'read the notes', '--wait']);
  const submitted = collect(waiting);
  // Step 1 (the call and its result) is committed when step 2 asks the model.
  await server.waitForRequests(2);
  first.child.kill('SIGKILL');
  await first.result;
  await startWorker(cli, sandbox, redis.url, ['--lease-ms', '2000', '--label', 'second']);
  const result = await submitted;
  expect(result.stderr).toMatch(/taken over by second@.* \(attempt 2\)/);
  expect(result.code).toBe(0);
  expect(result.stdout).toContain('Finished after the takeover.');
  // Step 1 was not asked for again: the second worker went on from it.
  expect(server.requests).toHaveLength(3);
  const sessionId = result.stdout.split('\n')[0]!;
  const { context, wire } = await history(sandbox.home, sessionId);
  expect(context.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  expect(JSON.stringify(context)).not.toContain('never committed');
  const results = wire.filter((m) => m.type === 'ToolResult');
  expect(results).toHaveLength(1);
  expect(results[0]!.payload.tool_call_id).toBe('call-read-1');
  expect(wire.filter((m) => m.type === 'TurnBegin')).toHaveLength(2);
});

it('a worker that lost its lease (paused past it) cannot commit after the other took the turn over', async () => {
  const held = gate();
  const { server, sandbox } = await cli.setup([
    readNotes,
    { text: 'from the paused worker', holdUntil: held.promise },
    { text: 'From the worker that took over.' },
  ]);
  await writeFile(join(sandbox.workDir, 'notes.txt'), 'the notes\n');
  const redis = await startRedis(cli);
  const paused = await startWorker(cli, sandbox, redis.url, ['--lease-ms', '2000', '--label', 'paused']);
  const submitted = collect(
    sandbox.spawn(['submit', '--queue', redis.url, '-p', 'read the notes', '--wait']),
  );
  await server.waitForRequests(2);
  paused.child.kill('SIGSTOP');
  cli.defer(() => paused.child.kill('SIGCONT'));
  await startWorker(cli, sandbox, redis.url, ['--lease-ms', '2000', '--label', 'other']);
  const result = await submitted;
  expect(result.code).toBe(0);
  expect(result.stdout).toContain('From the worker that took over.');
  // The paused worker wakes up and gets its answer: its commit is refused.
  const refused = waitForOutput(paused.child.stderr!, /lost the lease/);
  paused.child.kill('SIGCONT');
  held.open();
  await refused;
  const { context, wire } = await history(sandbox.home, result.stdout.split('\n')[0]!);
  expect(JSON.stringify(context)).not.toContain('from the paused worker');
  // Nor does its event log get what it streamed after it woke up.
  expect(JSON.stringify(wire)).not.toContain('from the paused worker');
  // Nor the session's stream in Redis.
  const stream = await sandbox.run(['fleet', 'events', result.stdout.split('\n')[0]!, '--queue', redis.url]);
  expect(stream.stdout).toContain('From the worker that took over.');
  expect(stream.stdout).not.toContain('from the paused worker');
  expect(context.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
});

it('a worker that wakes to find its lock gone stops the turn at once: its running command is killed, not left to finish', async () => {
  const { server, sandbox } = await cli.setup([
    // The paused worker's command: it would run for minutes.
    { toolCalls: [{ id: 'call-sleep-1', name: 'Shell', args: { command: 'sleep 297' } }] },
    { text: 'From the worker that took over.' },
  ]);
  const redis = await startRedis(cli);
  const paused = await startWorker(cli, sandbox, redis.url, ['--lease-ms', '2000', '--label', 'paused']);
  const submitted = collect(
    sandbox.spawn(['submit', '--queue', redis.url, '-p', 'wait a while', '--wait', '--yolo']),
  );
  await server.waitForRequests(1);
  const sleeping = () => descendantsOf(paused.child.pid!).some((line) => line.includes('sleep 297'));
  await waitForProcess(() => (sleeping() ? true : null), 'the paused worker to run its command');
  paused.child.kill('SIGSTOP');
  cli.defer(() => paused.child.kill('SIGCONT'));
  await startWorker(cli, sandbox, redis.url, ['--lease-ms', '2000', '--label', 'other']);
  const result = await submitted;
  expect(result.code).toBe(0);
  expect(result.stdout).toContain('From the worker that took over.');
  // The paused worker wakes, fails to renew its lock, and stops the turn it no longer holds.
  const stopped = waitForOutput(paused.child.stderr!, /lost the lease/);
  paused.child.kill('SIGCONT');
  await stopped;
  expect(sleeping()).toBe(false);
});
