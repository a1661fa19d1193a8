import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { deferred } from '../../src/util/deferred.js';
import { jsonLines, sessionFolder, startRedis, startWorker } from '../support/fleet-cli.js';
import { collect } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import type { ScriptedTurn } from '../support/scripted-llm-server.js';

const cli = useScriptedCli();
const SESSIONS = 6;

type Message = { role: string; content?: unknown };

it('workers × sessions: a worker SIGKILLed with three turns mid-step, all six finished by the others', async () => {
  const { server, sandbox } = await cli.setup([]);
  await writeFile(join(sandbox.workDir, 'notes.txt'), 'the notes\n');
  // The first worker's second steps hang until it is killed; after that, answers come at once.
  const released = deferred();
  cli.defer(() => released.resolve());
  let holding = true;
  server.answerBy((body): ScriptedTurn => {
    const messages = (body as { messages: Message[] }).messages;
    const last = messages.at(-1)!;
    const prompt = JSON.stringify(messages.findLast((m) => m.role === 'user')?.content);
    if (last.role === 'user')
      return { toolCalls: [{ id: `call-${prompt.length}`, name: 'ReadFile', args: { path: 'notes.txt' } }] };
    const answer = { text: `Finished ${prompt.replace(/\W/g, '')}.` };
    return holding ? { ...answer, holdUntil: released.promise } : answer;
  });
  const redis = await startRedis(cli);
  const doomed = await startWorker(cli, sandbox, redis.url, [
    '--concurrency',
    '3',
    '--lease-ms',
    '2000',
    '--label',
    'doomed',
  ]);
  const waits = Array.from({ length: SESSIONS }, (_, n) =>
    collect(sandbox.spawn(['submit', '--queue', redis.url, '-p', `task number ${n}`, '--wait'])),
  );
  // Three turns have committed their first step and wait for their second.
  await server.waitForRequests(6);
  holding = false;
  doomed.child.kill('SIGKILL');
  await doomed.result;
  await startWorker(cli, sandbox, redis.url, ['--concurrency', '2', '--lease-ms', '2000', '--label', 'one']);
  await startWorker(cli, sandbox, redis.url, ['--concurrency', '2', '--lease-ms', '2000', '--label', 'two']);
  const results = await Promise.all(waits);
  for (const [n, result] of results.entries()) {
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`Finished tasknumber${n}.`);
    const sessionId = result.stdout.split('\n')[0]!;
    const folder = await sessionFolder(sandbox.home, sessionId);
    const context = (await jsonLines(join(folder, 'context.jsonl'))).filter(
      (line) => typeof line.role === 'string' && !line.role.startsWith('_'),
    );
    expect(context.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    const wire = (await jsonLines(join(folder, 'wire.jsonl'))).map(
      (line) => line.message as { type: string } | undefined,
    );
    expect(wire.filter((m) => m?.type === 'ToolResult')).toHaveLength(1);
  }
  // Three turns were taken over after the kill.
  const takenOver = results.filter((r) => /taken over by (one|two)@/.test(r.stderr));
  expect(takenOver).toHaveLength(3);
});
