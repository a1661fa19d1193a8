import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandSecretReason } from './command-secret-paths.js';
import { gitRunStoreReason } from './git-store-reason.js';
import { parseShellCommand } from './shell-command.js';
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

/** The whole line, as the policy judges it: its parts, each with what the parts before it did. */
async function lineReason(command: string): Promise<string | null> {
  const parsed = await parseShellCommand(command);
  const home = join(root, 'home');
  return commandSecretReason(parsed.parts, work, { userHome: home, kimiHome: join(home, '.kimi-ts') });
}

describe('a remote named by an earlier part of the line (holes6, 2)', () => {
  it.each([
    'git remote add x ../other && git fetch x',
    'git remote add -t main -m main x ../other; git fetch -q x main',
    'git remote add x gh:team/repo && git pull x',
    'git remote set-url hosted ../other && git fetch hosted',
    'git remote rename local y && git fetch y',
    'git config remote.y.url ../other && git fetch y',
    'git config set remote.y.url ../other && git fetch y',
    // `-f` fetches at once: a fetch on its own.
    'git remote add -f x ../other',
    'git remote add --fetch x gh:team/repo',
  ])('%s reads the other store’s history', async (command) => {
    expect(await lineReason(command)).toMatch(/stored files/);
  });

  it.each([
    'git remote add x ../other',
    'git remote add x https://example.invalid/r.git && git fetch x',
    'git remote add -f x https://example.invalid/r.git',
    'git config remote.y.pushurl ../other && git fetch nosuch',
    'git fetch x; git remote add x ../other',
  ])('%s reads no store of this machine', async (command) => {
    expect(await lineReason(command)).toBeNull();
  });
});
