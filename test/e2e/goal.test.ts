import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../support/loopback-server.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { onlySessionDir } from '../support/session-files.js';

const cli = useScriptedCli();

interface SentMessage {
  role: string;
  content?: unknown;
  tool_call_id?: string;
}

function messagesOf(request: RecordedRequest | undefined): SentMessage[] {
  return (request?.body as { messages?: SentMessage[] })?.messages ?? [];
}

function toolNamesOf(request: RecordedRequest | undefined): string[] {
  const tools = (request?.body as { tools?: { function: { name: string } }[] })?.tools ?? [];
  return tools.map((tool) => tool.function.name);
}

function textOf(message: SentMessage | undefined): string {
  const { content } = message ?? {};
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part: { text?: string }) => part.text ?? '').join('');
  return '';
}

/** The last snapshot of the session's goal record (null: no goal). */
async function lastGoalRecord(): Promise<{
  status: string;
  reason: string | null;
  turnsUsed: number;
} | null> {
  const text = await readFile(join(await onlySessionDir(cli.sandbox.home), 'goal.jsonl'), 'utf8');
  const lines = text.trim().split('\n');
  return (JSON.parse(lines.at(-1) as string) as { goal: never }).goal;
}

async function goalEvents(): Promise<{ goal: { status: string } | null }[]> {
  const text = await readFile(join(await onlySessionDir(cli.sandbox.home), 'wire.jsonl'), 'utf8');
  return text
    .trim()
    .split('\n')
    .slice(1)
    .map(
      (line) =>
        JSON.parse(line) as { message: { type: string; payload: { goal: { status: string } | null } } },
    )
    .filter((record) => record.message.type === 'GoalUpdated')
    .map((record) => record.message.payload);
}

describe('goals in print mode', () => {
  it('does not take the model at its word: a failing check keeps the goal active, a passing one completes it (exit 0)', async () => {
    const { server, sandbox } = await cli.setup([
      // The model claims completion before doing anything.
      { toolCalls: [{ id: 'claim-1', name: 'UpdateGoal', args: { status: 'complete' } }] },
      // Told the check failed, it does the work, then claims again.
      { toolCalls: [{ id: 'work', name: 'Shell', args: { command: 'echo ok > done.txt' } }] },
      { toolCalls: [{ id: 'claim-2', name: 'UpdateGoal', args: { status: 'complete' } }] },
      { text: 'The goal is complete: done.txt says ok.' },
    ]);
    const result = await sandbox.run([
      '--print',
      '-p',
      `/goal --check 'grep -q ok done.txt' --max-turns 5 write ok into done.txt`,
    ]);
    expect(result.stderr).not.toMatch(/Error/);
    expect(result.code).toBe(0);
    expect(server.requests).toHaveLength(4);
    // The goal reminder opens the continuation turn, with the objective fenced as data.
    const first = messagesOf(server.requests[0]);
    expect(textOf(first.at(-1))).toMatch(
      /<untrusted_objective>\nwrite ok into done.txt\n<\/untrusted_objective>/,
    );
    expect(toolNamesOf(server.requests[0])).toEqual(
      expect.arrayContaining(['GetGoal', 'UpdateGoal', 'SetGoalBudget']),
    );
    // The first claim came back as the check's failure, with its exit code.
    const afterClaim = messagesOf(server.requests[1]).find((m) => m.tool_call_id === 'claim-1');
    expect(textOf(afterClaim)).toMatch(/NOT complete: its check `grep -q ok done.txt` exited with code 2/);
    const afterSecond = messagesOf(server.requests[3]).find((m) => m.tool_call_id === 'claim-2');
    expect(textOf(afterSecond)).toMatch(/passed\. The goal is complete/);
    expect(await readFile(join(sandbox.workDir, 'done.txt'), 'utf8')).toBe('ok\n');
    expect(result.stdout).toContain('Goal set: write ok into done.txt');
    expect(await lastGoalRecord()).toBeNull();
    const statuses = (await goalEvents()).map((event) => event.goal?.status ?? null);
    expect(statuses).toContain('complete');
    expect(statuses.at(-1)).toBeNull();
  });

  it('blocks the goal when its turn budget is spent (exit 3)', async () => {
    const { server, sandbox } = await cli.setup([
      { toolCalls: [{ id: 'w1', name: 'Shell', args: { command: 'echo one >> log.txt' } }] },
      { text: 'One slice done, more to go.' },
      { toolCalls: [{ id: 'w2', name: 'Shell', args: { command: 'echo two >> log.txt' } }] },
      { text: 'Another slice done, more to go.' },
      { text: 'This turn must never be asked for.' },
    ]);
    const result = await sandbox.run(['--print', '-p', '/goal --max-turns 2 write a long log']);
    expect(result.code).toBe(3);
    expect(server.requests).toHaveLength(4);
    expect(await lastGoalRecord()).toMatchObject({
      status: 'blocked',
      reason: 'Turn budget reached: 2 of 2 turns.',
      turnsUsed: 2,
    });
  });

  it('blocks a goal that makes no progress three turns in a row (exit 3)', async () => {
    const { server, sandbox } = await cli.setup([
      { text: 'Thinking about it.' },
      { text: 'Still thinking.' },
      { text: 'Thinking more.' },
      { text: 'This turn must never be asked for.' },
    ]);
    const result = await sandbox.run(['--print', '-p', '/goal ponder forever']);
    expect(result.code).toBe(3);
    expect(server.requests).toHaveLength(3);
    expect((await lastGoalRecord())?.reason).toMatch(/No progress in 3 goal turns/);
  });

  it('counts the same tool result again as no progress (exit 3)', async () => {
    // A read-only tool with a stable result: the same notes, every turn.
    const same = (id: string) => ({ toolCalls: [{ id, name: 'ReadFile', args: { path: 'notes.txt' } }] });

    const { server, sandbox } = await cli.setup([
      same('a'),
      { text: 'Nothing yet.' },
      same('b'),
      { text: 'Still nothing.' },
      same('c'),
      { text: 'Nothing again.' },
      same('d'),
      { text: 'And again nothing.' },
      { text: 'This turn must never be asked for.' },
    ]);
    await writeFile(join(sandbox.workDir, 'notes.txt'), 'nothing new\n');
    const result = await sandbox.run(['--print', '-p', '/goal wait for news in notes.txt']);
    expect(result.code).toBe(3);
    // The first turn's result was new; the three turns after it repeated it.
    expect(server.requests).toHaveLength(8);
    expect((await lastGoalRecord())?.reason).toMatch(/No progress in 3 goal turns/);
  });

  it('parks the goal as paused when the provider fails (exit 6); the resumed session finds it paused and resumes it', async () => {
    const { server, sandbox } = await cli.setup([
      { toolCalls: [{ id: 'w1', name: 'Shell', args: { command: 'echo one >> log.txt' } }] },
      { status: 400 },
      // The second run, after `/goal resume`.
      { toolCalls: [{ id: 'done', name: 'UpdateGoal', args: { status: 'complete' } }] },
      { text: 'Finished.' },
    ]);
    const result = await sandbox.run(['--print', '-p', '/goal --max-turns 9 write a log']);
    expect(result.code).toBe(6);
    expect(await lastGoalRecord()).toMatchObject({
      status: 'paused',
      reason: expect.stringMatching(/error/),
    });

    const status = await sandbox.run(['-C', '--print', '-p', '/goal']);
    // Only showing the goal touches no goal: print mode's own exit code.
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/Goal: write a log\nStatus: paused/);
    expect(status.stdout).toMatch(/Turns: 1\/9/);
    expect(server.requests).toHaveLength(2);

    const resumed = await sandbox.run(['-C', '--print', '-p', '/goal resume']);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain('Goal resumed: write a log');
    expect(server.requests).toHaveLength(4);
    expect(await lastGoalRecord()).toBeNull();
  });
});

describe('a parked goal', () => {
  it('is mentioned, not pursued, in a later ordinary turn, whose exit code stays print mode’s own', async () => {
    const { server, sandbox } = await cli.setup([{ status: 400 }, { text: 'Hello; the goal waits.' }]);
    expect((await sandbox.run(['--print', '-p', '/goal tidy the docs'])).code).toBe(6);
    const later = await sandbox.run(['-C', '--print', '-p', 'hello']);
    expect(later.code).toBe(0);
    expect(server.requests).toHaveLength(2);
    const sent = JSON.stringify(messagesOf(server.requests[1]));
    expect(sent).toContain('A goal exists but is paused');
    expect(sent).toContain('tidy the docs');
    expect(await lastGoalRecord()).toMatchObject({ status: 'paused' });
  });
});

describe('goal files', () => {
  it('keeps the goal out of a session that never set one', async () => {
    const { sandbox } = await cli.setup([{ text: 'Hello.' }]);
    const result = await sandbox.run(['--print', '-p', 'hi']);
    expect(result.code).toBe(0);
    expect(existsSync(join(await onlySessionDir(sandbox.home), 'goal.jsonl'))).toBe(false);
  });
});
