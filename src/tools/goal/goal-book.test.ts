import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GoalBook, GoalError, goalLine, NO_PROGRESS_TURNS, parseDuration } from './goal-book.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function goalFile(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'goal-book-'));
  dirs.push(dir);
  return join(dir, 'goal.jsonl');
}

describe('GoalBook', () => {
  it('keeps the goal across a restart, an active one coming back paused', async () => {
    const file = await goalFile();
    const book = await GoalBook.open(file);
    book.create({ objective: 'make the tests pass', check: 'npm test', budget: { maxTurns: 5 } });
    book.beginTurn();
    await book.flush();
    const reopened = await GoalBook.open(file);
    expect(reopened.current()).toMatchObject({
      objective: 'make the tests pass',
      check: 'npm test',
      status: 'paused',
      turnsUsed: 1,
      budget: { maxTurns: 5, maxTokens: null, maxTimeMs: null },
    });
    expect(reopened.current()?.reason).toMatch(/resumed/);
    // Reading it back is not this run touching it: print mode's exit code stays its own.
    expect(reopened.runEnd()).toBeNull();
    await reopened.flush();
    // The file is append-only: every snapshot is a line, the last one wins.
    const lines = (await readFile(file, 'utf8')).trim().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(3);
  });

  it('skips a torn last line (a crash mid-write) and reads the whole one before it', async () => {
    const file = await goalFile();
    const book = await GoalBook.open(file);
    book.create({ objective: 'survive a crash' });
    book.setStatus('blocked', 'needs a key');
    await book.flush();
    await appendFile(file, '{"goal":{"id":"x","objective":"torn');
    const reopened = await GoalBook.open(file);
    expect(reopened.current()).toMatchObject({
      objective: 'survive a crash',
      status: 'blocked',
      reason: 'needs a key',
    });
  });

  it('refuses a second goal unless replacing, and an empty objective', async () => {
    const book = await GoalBook.open(null);
    book.create({ objective: 'one' });
    expect(() => book.create({ objective: 'two' })).toThrow(GoalError);
    expect(() => book.create({ objective: '   ', replace: true })).toThrow(/empty/);
    book.create({ objective: 'two', replace: true });
    expect(book.current()?.objective).toBe('two');
  });

  it('blocks on the turn budget before a turn past it', async () => {
    const book = await GoalBook.open(null);
    book.create({ objective: 'x', budget: { maxTurns: 2 } });
    book.beginTurn();
    expect(book.enforceBudget()).toBe(false);
    book.beginTurn();
    expect(book.enforceBudget()).toBe(true);
    expect(book.current()).toMatchObject({ status: 'blocked', reason: 'Turn budget reached: 2 of 2 turns.' });
    expect(book.runEnd()).toBe('blocked');
  });

  it('counts tokens and time only while active', async () => {
    let now = 1_000;
    const book = await GoalBook.open(null, () => now);
    book.create({ objective: 'x', budget: { maxTokens: 100, maxTimeMs: 60_000 } });
    book.addTokens(40);
    now += 10_000;
    book.setStatus('paused', 'break');
    book.addTokens(500);
    now += 1_000_000;
    expect(book.view().elapsedMs).toBe(10_000);
    expect(book.current()?.tokensUsed).toBe(40);
    book.setStatus('active');
    now += 50_000;
    expect(book.budgetReached()).toBe('Time budget reached: 1m00s of 1m00s.');
    book.addTokens(60);
    expect(book.budgetReached()).toMatch(/^Token budget reached: 100 of 100/);
  });

  it(`blocks after ${NO_PROGRESS_TURNS} goal turns in a row without progress`, async () => {
    const book = await GoalBook.open(null);
    book.create({ objective: 'x' });
    book.endTurn(false);
    book.endTurn(true);
    for (let i = 1; i < NO_PROGRESS_TURNS; i++) book.endTurn(false);
    expect(book.current()?.status).toBe('active');
    book.endTurn(false);
    expect(book.current()).toMatchObject({ status: 'blocked', reason: expect.stringMatching(/No progress/) });
    // Resuming is a fresh attempt.
    book.setStatus('active');
    expect(book.current()).toMatchObject({ idleTurns: 0, reason: null });
  });

  it('counts a tool result as progress only the first time this goal sees it', async () => {
    const book = await GoalBook.open(null);
    book.create({ objective: 'x' });
    expect(book.noteResults(['ls:a'])).toBe(true);
    expect(book.noteResults(['ls:a'])).toBe(false);
    expect(book.noteResults(['ls:a', 'cat:b'])).toBe(true);
    expect(book.noteResults([])).toBe(false);
    // A new goal starts with nothing seen.
    book.create({ objective: 'y', replace: true });
    expect(book.noteResults(['ls:a'])).toBe(true);
  });

  it('tells listeners a completion, then clears the goal', async () => {
    const book = await GoalBook.open(null);
    const seen: (string | null)[] = [];
    book.onChange((view) => seen.push(view.goal?.status ?? null));
    book.create({ objective: 'x' });
    book.setStatus('complete', 'done');
    expect(seen).toEqual(['active', 'complete', null]);
    expect(book.current()).toBeNull();
    expect(book.runEnd()).toBe('complete');
  });

  it('draws one line for status bars, shortening long objectives', async () => {
    const book = await GoalBook.open(null);
    book.create({ objective: `fix ${'a'.repeat(100)}`, budget: { maxTurns: 7 } });
    book.beginTurn();
    const line = goalLine(book.view(), 20);
    expect(line).toBe(`goal: fix ${'a'.repeat(15)}… — active · turns 1/7`);
  });
});

describe('parseDuration', () => {
  it.each([
    ['30m', 1_800_000],
    ['2h', 7_200_000],
    ['1h30m', 5_400_000],
    ['90s', 90_000],
    ['45', 45_000],
    ['', null],
    ['0m', null],
    ['ten minutes', null],
  ])('%s → %s', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });
});
