import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { workDirKey } from '../../session/work-dir-key.js';
import { InputHistory } from './input-history.js';

let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'kimi-ts-history-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

describe('InputHistory', () => {
  it("keeps a work dir's prompts across sessions, newest first, without repeats", async () => {
    const first = InputHistory.forWorkDir(home, '/projects/a');
    expect(await first.load()).toEqual([]);
    await first.add('fix the bug');
    await first.add('fix the bug');
    await first.add('  ');
    await first.add('run the tests');
    expect(first.file).toBe(join(home, 'user-history', `${workDirKey('/projects/a')}.jsonl`));
    expect(await readFile(first.file, 'utf8')).toBe(
      '{"content":"fix the bug"}\n{"content":"run the tests"}\n',
    );

    const later = InputHistory.forWorkDir(home, '/projects/a');
    expect(await later.load()).toEqual(['run the tests', 'fix the bug']);
    await later.add('run the tests');
    expect(await later.load()).toEqual(['run the tests', 'fix the bug']);
    expect(await InputHistory.forWorkDir(home, '/projects/b').load()).toEqual([]);
  });

  it('skips a torn last line and lines that are not entries', async () => {
    const history = InputHistory.forWorkDir(home, '/projects/a');
    await history.add('first');
    await appendFile(history.file, '42\n{"other":1}\n{"content":"sec');
    const reopened = InputHistory.forWorkDir(home, '/projects/a');
    expect(await reopened.load()).toEqual(['first']);
    // The next entry does not get glued to the torn line.
    await reopened.add('second');
    expect(await InputHistory.forWorkDir(home, '/projects/a').load()).toEqual(['second', 'first']);
  });
});
