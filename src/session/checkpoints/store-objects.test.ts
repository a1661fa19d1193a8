import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { looseObjects, writeCommit, writeRef, writeRootsTree, writeStoreSkeleton } from './store-objects.js';

let gitDir: string;

beforeEach(async () => {
  gitDir = join(await mkdtemp(join(tmpdir(), 'kimi-ts-store-objects-')), 'store.git');
  await writeStoreSkeleton(gitDir);
});

afterEach(async () => {
  await rm(join(gitDir, '..'), { recursive: true, force: true });
});

const git = (args: string[], input = '', env: Record<string, string> = {}) =>
  execFileSync('git', args, {
    input,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_DIR: gitDir,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      ...env,
    },
  }).trim();

describe('the objects the store writes without git', () => {
  it('are the ones git writes for the same tree and commit, and git reads them', async () => {
    const empty = git(['mktree']);
    const listing = Array.from({ length: 11 }, (_, i) => `040000 tree ${empty}\t${i}`).join('\n');
    const roots = Array.from({ length: 11 }, () => empty);
    const tree = writeRootsTree(looseObjects(gitDir), roots);
    expect(tree).toBe(git(['mktree'], `${listing}\n`));
    const when = 1_700_000_000_000;
    const message = JSON.stringify({ label: 'turn 1', seq: 1 });
    const commit = writeCommit(looseObjects(gitDir), tree, message, when);
    const date = '1700000000 +0000';
    const byGit = git(
      [
        '-c',
        'user.name=kimi-ts',
        '-c',
        'user.email=checkpoints@kimi-ts.invalid',
        'commit-tree',
        tree,
        '-F',
        '-',
      ],
      message,
      {
        GIT_AUTHOR_DATE: date,
        GIT_COMMITTER_DATE: date,
      },
    );
    expect(commit).toBe(byGit);
    await writeRef(gitDir, 'refs/kimi-ts/s1/000001', commit);
    expect(git(['for-each-ref', '--format=%(objectname) %(refname)'])).toBe(
      `${commit} refs/kimi-ts/s1/000001`,
    );
    expect(git(['fsck', '--strict', '--no-dangling'])).toBe('');
  });

  it('refuses a ref name git would refuse', async () => {
    for (const ref of [
      'refs/kimi-ts/a..b/1',
      'refs/kimi-ts/x.lock/1',
      'refs/kimi-ts/.hidden/1',
      'refs/../HEAD',
      'HEAD',
    ]) {
      await expect(writeRef(gitDir, ref, '0'.repeat(40))).rejects.toThrow(/bad ref name/);
    }
  });
});
