import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSession } from '../session/session.js';
import { GoalBook } from '../tools/goal/goal-book.js';
import { Approval } from '../toolset/approval/approval.js';
import { KimiToolset } from '../toolset/kimi-toolset.js';
import { dispatchAll, resultText, toolCall } from '../toolset/test-support/dispatch.js';
import { withTestPolicy } from '../toolset/test-support/test-policy.js';
import { forkSession } from './session-fork.js';
import { GOAL_FILE, openSessionGoal } from './session-goal.js';

const roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempRoot(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'kimi-ts-goal-'));
  roots.push(root);
  return root;
}

describe('the session goal', () => {
  it('shows the goal tools to the model only while a goal exists', async () => {
    const dir = await tempRoot();
    const toolset = new KimiToolset(withTestPolicy({ approval: new Approval() }));
    const book = await openSessionGoal(dir, toolset);
    const names = () => toolset.tools.map((tool) => tool.name).filter((name) => name.includes('Goal'));
    expect(names()).toEqual([]);
    book.create({ objective: 'ship it' });
    expect(names().sort()).toEqual(['CreateGoal', 'GetGoal', 'SetGoalBudget', 'UpdateGoal']);
    book.clear();
    expect(names()).toEqual([]);
    await book.flush();
  });

  it('records a goal paused on resume in the history, so every replay shows it paused', async () => {
    const root = await tempRoot();
    const session = await createSession({ home: join(root, 'home'), workDir: join(root, 'work') });
    const first = await GoalBook.open(join(session.dir, GOAL_FILE));
    first.create({ objective: 'ship it' });
    await first.flush();
    // The process that ran it died with the goal active: the next one opens it.
    const toolset = () => new KimiToolset(withTestPolicy({ approval: new Approval() }));
    const book = await openSessionGoal(session.dir, toolset(), session.wireFile);
    expect(book.current()?.status).toBe('paused');
    const records = async () =>
      (await readFile(session.wireFile, 'utf8'))
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => JSON.parse(line).message);
    expect(await records()).toEqual([
      {
        type: 'GoalUpdated',
        payload: { goal: expect.objectContaining({ objective: 'ship it', status: 'paused' }) },
      },
    ]);
    await book.flush();
    // Opened again, it was paused already: nothing more to tell.
    await (await openSessionGoal(session.dir, toolset(), session.wireFile)).flush();
    expect(await records()).toHaveLength(1);
  });

  it('is not inherited by a fork', async () => {
    const root = await tempRoot();
    const home = join(root, 'home');
    const session = await createSession({ home, workDir: join(root, 'work') });
    await writeFile(
      session.contextFile,
      `${JSON.stringify({ role: 'user', content: [{ type: 'text', text: 'hi' }] })}\n`,
    );
    const book = await GoalBook.open(join(session.dir, GOAL_FILE));
    book.create({ objective: 'the source session’s goal' });
    await book.flush();
    const fork = await forkSession(session, { home });
    expect((await GoalBook.open(join(fork.dir, GOAL_FILE))).current()).toBeNull();
    expect((await GoalBook.open(join(session.dir, GOAL_FILE))).current()?.objective).toBe(
      'the source session’s goal',
    );
  });
});

describe('the goal tools', () => {
  async function setUp() {
    const dir = await tempRoot();
    const toolset = new KimiToolset(withTestPolicy({ approval: new Approval() }));
    const book = await openSessionGoal(dir, toolset);
    return { toolset, book };
  }

  it('block the goal with the model’s reason, and resume it', async () => {
    const { toolset, book } = await setUp();
    book.create({ objective: 'divide by zero' });
    const [blocked] = await dispatchAll(toolset, [
      toolCall('b', 'UpdateGoal', { status: 'blocked', reason: 'impossible: x/0 is undefined' }),
    ]);
    expect(blocked?.return_value.is_error).toBe(false);
    expect(book.current()).toMatchObject({ status: 'blocked', reason: 'impossible: x/0 is undefined' });
    expect(book.runEnd()).toBe('blocked');
    await dispatchAll(toolset, [toolCall('a', 'UpdateGoal', { status: 'active' })]);
    expect(book.current()).toMatchObject({ status: 'active', reason: null });
    await book.flush();
  });

  it('set budgets, refuse an empty one, and read the goal back', async () => {
    const { toolset, book } = await setUp();
    book.create({ objective: 'x' });
    const [set, empty, read] = await dispatchAll(toolset, [
      toolCall('s', 'SetGoalBudget', { max_turns: 4, max_time_minutes: 1.5 }),
      toolCall('e', 'SetGoalBudget', {}),
      toolCall('g', 'GetGoal', {}),
    ]);
    expect(set?.return_value.is_error).toBe(false);
    expect(empty?.return_value.is_error).toBe(true);
    expect(book.current()?.budget).toEqual({ maxTurns: 4, maxTokens: null, maxTimeMs: 90_000 });
    expect(
      JSON.parse(
        resultText(read as never)
          .split('\n')
          .slice(1)
          .join('\n'),
      ),
    ).toMatchObject({
      goal: { objective: 'x', status: 'active', budget: { max_turns: 4, max_time: '1m30s' } },
    });
    await book.flush();
  });

  it('CreateGoal refuses to replace a goal silently', async () => {
    const { toolset, book } = await setUp();
    book.create({ objective: 'first' });
    const [refused] = await dispatchAll(toolset, [toolCall('c', 'CreateGoal', { objective: 'second' })]);
    expect(refused?.return_value.is_error).toBe(true);
    expect(book.current()?.objective).toBe('first');
    await dispatchAll(toolset, [
      toolCall('r', 'CreateGoal', { objective: 'second', check: 'true', replace: true }),
    ]);
    expect(book.current()).toMatchObject({ objective: 'second', check: 'true' });
    await book.flush();
  });

  it('cannot loosen the evidence: no raised budget, no replaced check', async () => {
    const { toolset, book } = await setUp();
    book.create({ objective: 'pass the tests', check: 'npm test', budget: { maxTurns: 3 } });
    const [raised, lowered, swapped] = await dispatchAll(toolset, [
      toolCall('r', 'SetGoalBudget', { max_turns: 300 }),
      toolCall('l', 'SetGoalBudget', { max_turns: 2, max_tokens: 1000 }),
      toolCall('s', 'CreateGoal', { objective: 'pass the tests', check: 'true', replace: true }),
    ]);
    expect(raised?.return_value.is_error).toBe(true);
    expect(lowered?.return_value.is_error).toBe(false);
    expect(swapped?.return_value.is_error).toBe(true);
    expect(book.current()).toMatchObject({ check: 'npm test', budget: { maxTurns: 2, maxTokens: 1000 } });
    await book.flush();
  });
});
