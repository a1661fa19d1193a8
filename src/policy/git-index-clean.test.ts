import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SandboxSecretFiles } from './sandbox-secret-files.js';
import { SECRET_WALK_BOUNDS } from './workspace-secret-walk.js';

// The token scan passes over a file git's index holds as it is (its content is a blob of the
// store, which the history scan treats); a changed or untracked one is scanned (git-index-clean.ts).

const GHP = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
const HOUR_AGO = new Date(Date.now() - 3_600_000);

let root: string;
let secrets: SandboxSecretFiles;
const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: root });

/** A file dated an hour back (older than the index git writes next: not racily clean). */
function put(name: string, content: string): string {
  const path = join(root, name);
  writeFileSync(path, content);
  utimesSync(path, HOUR_AGO, HOUR_AGO);
  return path;
}

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'kimi-ts-index-clean-')));
  git('init', '-q');
  mkdirSync(join(root, 'test'));
  const later = Date.now() + 10_000;
  secrets = new SandboxSecretFiles(join(root, '.git', 'kimi-cache'), true, SECRET_WALK_BOUNDS, () => later);
});
afterEach(() => {
  secrets.dispose();
  rmSync(root, { recursive: true, force: true });
});

const copied = async () => [...(await secrets.binds([root])).copies.keys()].sort();

describe.each([2, 4])('a token in a file of the work tree, index version %i', (version) => {
  beforeEach(() => {
    git('config', 'index.version', String(version));
  });

  it('a committed file as the index holds it is not copied; untracked and changed ones are', async () => {
    const fixture = put('test/fixture.ts', `const sample = '${GHP}';\n`);
    const notes = put('notes.txt', 'clean\n');
    git('add', '.');
    git('commit', '-qm', 'one');
    const untracked = put('untracked.txt', `${GHP}\n`);
    expect(await copied()).toEqual([untracked]);
    // Changed in place (a token added to a tracked file): scanned, copied.
    appendFileSync(notes, `${GHP}\n`);
    secrets.refresh([root]);
    expect(await copied()).toEqual([notes, untracked]);
    expect(await copied()).not.toContain(fixture);
  });

  it('a staged file (its blob in the store, not committed) is passed over too', async () => {
    put('staged.txt', `${GHP}\n`);
    git('add', 'staged.txt');
    expect(await copied()).toEqual([]);
  });

  // The same size, its mtime set back to the index's: the ctime, which no call sets back, tells.
  it('a tracked file rewritten with its size and mtime kept is scanned', async () => {
    const file = put('notes.txt', `${'x'.repeat(GHP.length)}\n`);
    git('add', '.');
    expect(await copied()).toEqual([]);
    const before = statSync(file);
    writeFileSync(file, `${GHP}\n`);
    utimesSync(file, before.atime, before.mtime);
    secrets.refresh([root]);
    expect(await copied()).toEqual([file]);
  });

  it('a file in a merge conflict is scanned', async () => {
    const file = put('notes.txt', 'base\n');
    git('add', '.');
    git('commit', '-qm', 'base');
    git('checkout', '-qb', 'other');
    put('notes.txt', `other ${GHP}\n`);
    git('commit', '-qam', 'other');
    git('checkout', '-q', '-');
    put('notes.txt', `mine ${GHP}\n`);
    git('commit', '-qam', 'mine');
    try {
      git('merge', '-q', 'other');
    } catch {
      // The conflict, as wanted.
    }
    utimesSync(file, HOUR_AGO, HOUR_AGO);
    expect(await copied()).toEqual([file]);
  });
});

it('a racily clean file (changed in the tick the index was written) is scanned', async () => {
  const file = join(root, 'notes.txt');
  writeFileSync(file, `${GHP}\n`);
  // Its mtime after the index's: git itself would compare the content.
  git('add', '.');
  const future = new Date(Date.now() + 60_000);
  utimesSync(file, future, future);
  git('update-index', '--refresh');
  expect(await copied()).toEqual([file]);
});
