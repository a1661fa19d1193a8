import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSession } from '../session/session.js';
import { GoalBook } from '../tools/goal/goal-book.js';
import { Approval } from '../toolset/approval/approval.js';
import { KimiToolset } from '../toolset/kimi-toolset.js';
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
