import { join } from 'node:path';
import { expect, it } from 'vitest';
import { jsonLines, sessionFolder, startRedis, startWorker } from '../support/fleet-cli.js';
import { collect, waitForOutput } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';

const cli = useScriptedCli();

function ask(question: string, labels: string[]) {
  return {
    toolCalls: [
      {
        id: 'call-ask-1',
        name: 'AskUserQuestion',
        args: { questions: [{ question, options: labels.map((label) => ({ label })) }] },
      },
    ],
  };
}
const askDb = ask('Which database?', ['Postgres', 'SQLite']);

async function toolResults(home: string, sessionId: string): Promise<string[]> {
  const folder = await sessionFolder(home, sessionId);
  return (await jsonLines(join(folder, 'context.jsonl')))
    .filter((line) => line.role === 'tool')
    .map((line) => JSON.stringify(line.content));
}

it('a parked question holds no worker, is answered by `fleet answer`, and goes on on another worker', async () => {
  const { server, sandbox } = await cli.setup([askDb, askDb, { text: 'Using SQLite.' }]);
  const redis = await startRedis(cli);
  const first = await startWorker(cli, sandbox, redis.url, ['--label', 'first']);
  const waiting = sandbox.spawn(['submit', '--queue', redis.url, '-p', 'set up the db', '--ask', '--wait']);
  const submitted = collect(waiting);
  const sessionId = (await waitForOutput(waiting.stdout!, /\n/)).trim();
  await waitForOutput(waiting.stderr!, /Waiting for an answer: Which database\?/);
  // Parked: the job is delayed, no turn runs, nothing of the step that asked was committed.
  const status = JSON.parse((await sandbox.run(['fleet', 'status', '--queue', redis.url, '--json'])).stdout);
  expect(status.counts).toMatchObject({ running: 0, delayed: 1 });
  expect(await toolResults(sandbox.home, sessionId)).toEqual([]);
  // Without an answer, `fleet answer` shows the question and its numbered options.
  const shown = await sandbox.run(['fleet', 'answer', sessionId, '--queue', redis.url]);
  expect(shown.code).toBe(0);
  expect(shown.stdout).toContain('Question 1: Which database?');
  expect(shown.stdout).toMatch(/1\) Postgres\n {2}2\) SQLite\n/);
  // An answer that is no option is refused, and answers nothing.
  const wrong = await sandbox.run(['fleet', 'answer', sessionId, '--queue', redis.url, '--answer', 'MySQL']);
  expect(wrong.code).toBe(2);
  expect(wrong.stderr).toContain('"MySQL" is not an option of question 1');
  const tooMany = await sandbox.run([
    'fleet',
    'answer',
    sessionId,
    '--queue',
    redis.url,
    '--answer',
    '1',
    '--answer',
    '2',
  ]);
  expect(tooMany.code).toBe(2);
  // The first worker goes away; the second takes the answered turn.
  first.child.kill('SIGTERM');
  expect((await first.result).code).toBe(0);
  await startWorker(cli, sandbox, redis.url, ['--label', 'second']);
  const answered = await sandbox.run(['fleet', 'answer', sessionId, '--queue', redis.url, '--answer', '2']);
  expect(answered.code).toBe(0);
  expect(answered.stdout).toContain('Answered: Which database?');
  const result = await submitted;
  expect(result.code).toBe(0);
  expect(result.stderr).toMatch(/Answered; the turn goes on, on second@/);
  expect(result.stdout).toContain('Using SQLite.');
  // The redone step found the answer: one tool result, SQLite, and the model asked once more.
  const results = await toolResults(sandbox.home, sessionId);
  expect(results).toHaveLength(1);
  expect(results[0]).toContain('SQLite');
  expect(server.requests).toHaveLength(3);
  // Used once: nothing waits now.
  const again = await sandbox.run(['fleet', 'answer', sessionId, '--queue', redis.url, '--answer', '1']);
  expect(again.code).toBe(1);
  expect(again.stderr).toContain('No question is waiting');
});

it('a hostile question: its text reaches the terminal made safe, and a dismissal answers nothing', async () => {
  const planted = ask('Pick\u001b]0;owned\u0007 one\u001b[2J?', ['Yes\u001b[31m', 'No']);
  const { server, sandbox } = await cli.setup([planted, planted, { text: 'Nobody chose.' }]);
  const redis = await startRedis(cli);
  await startWorker(cli, sandbox, redis.url);
  const waiting = sandbox.spawn(['submit', '--queue', redis.url, '-p', 'ask me', '--ask', '--wait']);
  const submitted = collect(waiting);
  const sessionId = (await waitForOutput(waiting.stdout!, /\n/)).trim();
  await waitForOutput(waiting.stderr!, /Waiting for an answer/);
  const shown = await sandbox.run(['fleet', 'answer', sessionId, '--queue', redis.url]);
  expect(shown.stdout).toContain('Question 1:');
  expect(shown.stdout).not.toContain('\u001b');
  expect(shown.stdout).not.toContain('\u0007');
  // The option's label with its escape is an option; typed without it, it is not.
  const wrong = await sandbox.run(['fleet', 'answer', sessionId, '--queue', redis.url, '--answer', 'Yes']);
  expect(wrong.code).toBe(2);
  expect(wrong.stderr).not.toContain('\u001b');
  const dismissed = await sandbox.run(['fleet', 'answer', sessionId, '--queue', redis.url, '--dismiss']);
  expect(dismissed.code).toBe(0);
  const result = await submitted;
  expect(result.code).toBe(0);
  expect(result.stdout).toContain('Nobody chose.');
  expect(result.stderr).not.toContain('\u001b');
  const results = await toolResults(sandbox.home, sessionId);
  expect(results).toHaveLength(1);
  expect(results[0]).toMatch(/dismissed/i);
  expect(server.requests).toHaveLength(3);
});

it('without --ask a question does not park: the worker is afk and the model decides', async () => {
  const { server, sandbox } = await cli.setup([askDb, { text: 'Decided myself.' }]);
  const redis = await startRedis(cli);
  await startWorker(cli, sandbox, redis.url);
  const result = await sandbox.run(['submit', '--queue', redis.url, '-p', 'set up the db', '--wait']);
  expect(result.code).toBe(0);
  expect(result.stderr).not.toContain('Waiting for an answer');
  expect(result.stdout).toContain('Decided myself.');
  expect(server.requests).toHaveLength(2);
  expect(JSON.stringify(server.requests[1])).toMatch(/no user is present/i);
});
