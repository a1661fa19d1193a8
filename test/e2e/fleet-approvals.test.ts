import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { jsonLines, sessionFolder, startRedis, startWorker, submit } from '../support/fleet-cli.js';
import { collect, waitForOutput } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';

const cli = useScriptedCli();

const writeNote = {
  toolCalls: [{ id: 'call-shell-1', name: 'Shell', args: { command: 'echo approved > note.txt' } }],
};

it('a turn parked for an approval holds no worker, and goes on on another worker after the answer', async () => {
  const { server, sandbox } = await cli.setup([
    writeNote,
    // Meanwhile the same worker runs another session's turn: the parked one holds it not.
    { text: 'Other session done.' },
    // The step that asked is redone on the second worker, and finds its answer.
    writeNote,
    { text: 'Wrote the note.' },
  ]);
  const redis = await startRedis(cli);
  const first = await startWorker(cli, sandbox, redis.url, ['--label', 'first']);
  const waiting = sandbox.spawn(['submit', '--queue', redis.url, '-p', 'write the note', '--ask', '--wait']);
  const submitted = collect(waiting);
  const sessionId = (await waitForOutput(waiting.stdout!, /\n/)).trim();
  await waitForOutput(waiting.stderr!, /Waiting for an approval/);
  // Parked: nothing of the step that asked was committed, nothing ran.
  const folder = await sessionFolder(sandbox.home, sessionId);
  const roles = async () =>
    (await jsonLines(join(folder, 'context.jsonl')))
      .map((line) => line.role)
      .filter((role) => typeof role === 'string' && !role.startsWith('_'));
  expect(await roles()).toEqual(['user']);
  const other = await submit(sandbox, redis.url, 'another task', ['--wait']);
  expect(other.code).toBe(0);
  expect(other.stdout).toContain('Other session done.');
  const status = JSON.parse((await sandbox.run(['fleet', 'status', '--queue', redis.url, '--json'])).stdout);
  expect(status.counts).toMatchObject({ running: 0, delayed: 1 });
  // The first worker goes away; a second one will take the answered turn.
  first.child.kill('SIGTERM');
  expect((await first.result).code).toBe(0);
  await startWorker(cli, sandbox, redis.url, ['--label', 'second']);
  const approved = await sandbox.run(['fleet', 'approve', sessionId, '--queue', redis.url, '--approve']);
  expect(approved.code).toBe(0);
  expect(approved.stdout).toContain('Approved');
  const result = await submitted;
  expect(result.code).toBe(0);
  expect(result.stderr).toMatch(/Answered; the turn goes on, on second@/);
  expect(result.stdout).toContain('Wrote the note.');
  expect(await readFile(join(sandbox.workDir, 'note.txt'), 'utf8')).toBe('approved\n');
  expect(await roles()).toEqual(['user', 'assistant', 'tool', 'assistant']);
  expect(server.requests).toHaveLength(4);
});

it('a rejected approval: the redone step is refused, nothing runs, the turn ends there', async () => {
  const { server, sandbox } = await cli.setup([writeNote, writeNote]);
  const redis = await startRedis(cli);
  await startWorker(cli, sandbox, redis.url);
  const waiting = sandbox.spawn(['submit', '--queue', redis.url, '-p', 'write the note', '--ask', '--wait']);
  const submitted = collect(waiting);
  const sessionId = (await waitForOutput(waiting.stdout!, /\n/)).trim();
  await waitForOutput(waiting.stderr!, /Waiting for an approval/);
  const rejected = await sandbox.run(['fleet', 'approve', sessionId, '--queue', redis.url, '--reject']);
  expect(rejected.code).toBe(0);
  expect(rejected.stdout).toContain('Rejected');
  const result = await submitted;
  expect(result.code).toBe(0);
  await expect(readFile(join(sandbox.workDir, 'note.txt'), 'utf8')).rejects.toThrow();
  // A rejection ends the turn (as at a terminal): the model is not asked again.
  expect(server.requests).toHaveLength(2);
  const folder = await sessionFolder(sandbox.home, sessionId);
  const context = await jsonLines(join(folder, 'context.jsonl'));
  const results = context.filter((line) => line.role === 'tool');
  expect(results).toHaveLength(1);
  expect(JSON.stringify(results[0])).toMatch(/reject/i);
  // Nothing left to answer.
  const again = await sandbox.run(['fleet', 'approve', sessionId, '--queue', redis.url, '--approve']);
  expect(again.code).toBe(1);
  expect(again.stderr).toContain('No approval is waiting');
});
