import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitRunStoreReason } from './git-store-reason.js';
import { splitWords } from './shell-split-words.js';

/**
 * A fetch, pull or push through a remote's name or a URL the config leads to a local path (holes5,
 * 7): a copy of that store (a fetch) or of this one (a push), judged as `git fetch ../other` is.
 * Real repositories: `other` holds a token in its history; `work` holds none.
 */

let root: string;
let work: string;
const TOKEN = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, stdio: 'ignore' });
}

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'kimi-ts-remote-reads-')));
  work = join(root, 'work');
  const other = join(root, 'other');
  for (const dir of [work, other]) await mkdir(dir);
  await writeFile(join(other, 'notes.txt'), `push with ${TOKEN}\n`);
  git(other, 'init', '-q');
  git(other, 'add', '.');
  git(other, 'commit', '-qm', 'notes');
  git(work, 'init', '-q');
  git(work, 'commit', '-q', '--allow-empty', '-m', 'top');
  git(work, 'remote', 'add', 'local', '../other');
  git(work, 'remote', 'add', 'hosted', 'https://example.invalid/r.git');
  git(work, 'config', 'url.../other.insteadOf', 'gh:team/repo');
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const reason = (command: string) => gitRunStoreReason({ words: splitWords(command), assigned: [] }, work);

describe('gitRunStoreReason: remotes that lead to a local path', () => {
  it.each([
    'git fetch local',
    'git fetch -q local main',
    'git pull --rebase local',
    'git fetch gh:team/repo',
    'git -C . fetch local',
  ])('%s reads the other store’s history', async (command) => {
    expect(await reason(command)).toMatch(/stored files/);
  });

  it.each([
    'git fetch hosted',
    'git pull hosted main',
    'git fetch https://example.invalid/r.git',
    'git fetch nosuch',
    'git push hosted',
  ])('%s reads no store of this machine', async (command) => {
    expect(await reason(command)).toBeNull();
  });

  it('a push to a local remote copies this store (clean here: no reason)', async () => {
    expect(await reason('git push local HEAD:refs/heads/x')).toBeNull();
  });
});
