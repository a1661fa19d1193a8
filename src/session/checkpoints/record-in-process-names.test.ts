import { execFileSync } from 'node:child_process';
import { lstatSync, readdirSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CheckpointStore } from './checkpoint-store.js';
import { sessionIndexFile } from './session-index.js';
import { RACY_NS } from './work-tree-stat.js';

let root: string;
let work: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'kimi-ts-record-names-'));
  work = join(root, 'work');
  await mkdir(work);
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Waits until every entry under the work dir (symlinks not followed) is older than the racy window. */
async function untilSettled(): Promise<void> {
  let newest = 0n;
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const s = lstatSync(join(dir, entry.name), { bigint: true });
      for (const t of [s.mtimeNs, s.ctimeNs]) if (t > newest) newest = t;
      if (entry.isDirectory()) walk(join(dir, entry.name));
    }
  };
  walk(work);
  const settled = newest + RACY_NS + 1_000_000n;
  while (BigInt(Date.now()) * 1_000_000n <= settled) await new Promise((resolve) => setTimeout(resolve, 5));
}

const git = (gitDir: string, args: string[], indexFile?: string) =>
  execFileSync('git', args, {
    cwd: work,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_DIR: gitDir,
      GIT_WORK_TREE: work,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      ...(indexFile ? { GIT_INDEX_FILE: indexFile } : {}),
    },
  });

describe('a hostile folder of plain names, recorded in-process', () => {
  it('is what git records, and git reads its index back with nothing to record', async () => {
    const long = 'n'.repeat(255);
    for (const name of [
      '-rf',
      ' lead',
      'trail.',
      'trail ',
      'a~1',
      'x:y',
      '*?[]',
      '#hash',
      '%41',
      long,
      'GIT',
      'HEAD',
    ])
      await writeFile(join(work, name), `${name}\n`);
    await mkdir(join(work, 'refs', 'heads'), { recursive: true });
    await writeFile(join(work, 'refs', 'heads', 'main'), '0'.repeat(40));
    await writeFile(join(work, 'group-x'), 'g\n');
    await chmod(join(work, 'group-x'), 0o654);
    await writeFile(join(work, 'owner-x'), 'o\n');
    await chmod(join(work, 'owner-x'), 0o744);
    await writeFile(join(work, 'empty'), '');
    await symlink('/etc/passwd', join(work, 'to-outside'));
    await symlink('loop', join(work, 'loop'));
    await symlink('../../..', join(work, 'up'));
    await symlink(join(root, 'home'), join(work, 'to-store'));
    await untilSettled();
    const home = join(root, 'home');
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    const savedPath = process.env.PATH;
    // No git on PATH for the record: it must be written in-process, or fail.
    process.env.PATH = join(root, 'no-bin');
    const { checkpoint } = await store.record('turn 1').finally(() => {
      process.env.PATH = savedPath;
    });
    expect(git(store.gitDir, ['fsck', '--strict', '--no-dangling'])).toBe('');
    const index = await sessionIndexFile(store.gitDir, 's1', work);
    expect(git(store.gitDir, ['ls-files', '--modified', '--others', '--deleted'], index)).toBe('');
    expect(git(store.gitDir, ['diff-files', '--name-only'], index)).toBe('');
    const theirs = join(root, 'git-index');
    git(store.gitDir, ['add', '-A', '--', '.'], theirs);
    expect(git(store.gitDir, ['ls-files', '-s'], index)).toBe(git(store.gitDir, ['ls-files', '-s'], theirs));
    expect(git(store.gitDir, ['rev-parse', `${checkpoint.id}:0`]).trim()).toBe(
      git(store.gitDir, ['write-tree'], theirs).trim(),
    );
    // What /etc/passwd holds was never read: only the link's text is stored.
    const passwd = git(store.gitDir, ['hash-object', '/etc/passwd']).trim();
    expect(() => git(store.gitDir, ['cat-file', '-e', passwd])).toThrow();
  });
});
