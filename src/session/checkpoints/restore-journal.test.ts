import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lockSession } from '../session-lock.js';
import { workDirKey } from '../work-dir-key.js';
import { cleanRestoreLeftovers, restoreJournalFile, writeRestoreJournal } from './restore-journal.js';

let root: string;
let home: string;
let work: string;
let gitDir: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'kimi-ts-restore-journal-'));
  home = join(root, 'home');
  work = join(root, 'work');
  gitDir = join(root, 'store.git');
  await mkdir(join(work, 'sub'), { recursive: true });
  await mkdir(gitDir);
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const TEMP_A = '.kimi-ts-restore-aaaaaaaaaaaa';
const TEMP_B = '.kimi-ts-restore-bbbbbbbbbbbb';

describe('leftovers of a crashed restore', () => {
  it("removes exactly the temporary files its journal names, never a user's file or one outside", async () => {
    const outside = join(root, 'outside');
    await mkdir(outside);
    await writeFile(join(work, TEMP_A), 'torn');
    await writeFile(join(work, 'sub', TEMP_B), 'torn');
    // The user's own files: a similar name, and the exact pattern that no journal names.
    await writeFile(join(work, '.kimi-ts-restore-notes'), 'mine');
    await writeFile(join(work, 'sub', '.kimi-ts-restore-cccccccccccc'), 'mine too');
    // A folder since replaced by a symlink that leads outside, where a file of that name lives.
    await writeFile(join(outside, TEMP_A), 'outside');
    await symlink(outside, join(work, 'link'));
    // A directory by a journaled name is not ours.
    await mkdir(join(work, 'sub', TEMP_A));
    await writeRestoreJournal(
      gitDir,
      's1',
      [work],
      [
        { root: 0, path: TEMP_A },
        { root: 0, path: `sub/${TEMP_B}` },
        { root: 0, path: `link/${TEMP_A}` },
        { root: 0, path: `sub/${TEMP_A}` },
        { root: 0, path: `../${TEMP_A}` },
        { root: 0, path: 'sub/not-a-temp.txt' },
      ],
    );
    await writeFile(join(work, 'sub', 'not-a-temp.txt'), 'user');

    expect(await cleanRestoreLeftovers(gitDir, home, 's1')).toBe(2);
    expect(existsSync(join(work, TEMP_A))).toBe(false);
    expect(existsSync(join(work, 'sub', TEMP_B))).toBe(false);
    expect((await readdir(work)).sort()).toEqual(['.kimi-ts-restore-notes', 'link', 'sub']);
    expect((await readdir(join(work, 'sub'))).sort()).toEqual([
      '.kimi-ts-restore-aaaaaaaaaaaa',
      '.kimi-ts-restore-cccccccccccc',
      'not-a-temp.txt',
    ]);
    expect(await readdir(outside)).toEqual([TEMP_A]);
    expect(existsSync(restoreJournalFile(gitDir, 's1'))).toBe(false);
  });

  it("leaves another session's journal alone while that session is open, and cleans it once it is closed", async () => {
    await writeFile(join(work, TEMP_A), 'in progress');
    await writeRestoreJournal(gitDir, 'other', [work], [{ root: 0, path: TEMP_A }]);
    const sessionDir = join(home, 'sessions', workDirKey(work), 'other');
    await mkdir(sessionDir, { recursive: true });
    const lock = await lockSession('other', sessionDir);
    try {
      expect(await cleanRestoreLeftovers(gitDir, home, 'me')).toBe(0);
      expect(existsSync(join(work, TEMP_A))).toBe(true);
    } finally {
      await lock.release();
    }
    expect(await cleanRestoreLeftovers(gitDir, home, 'me')).toBe(1);
    expect(existsSync(join(work, TEMP_A))).toBe(false);
  });
});
