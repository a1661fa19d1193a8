import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GitTrapWalk } from '../../util/git-walk-traps.js';
import { CheckpointStore } from './checkpoint-store.js';
import { nulFields, runGit } from './git-runner.js';

/**
 * git decides whether an untracked folder is a nested repository by opening files in its `.git`
 * (HEAD, commondir), following a gitfile anywhere. A sandboxed command can make those a FIFO (git
 * waits forever), a link to /dev/zero or a huge sparse file (git reads it whole: memory without end).
 * A record must neither hang nor let git read without bound.
 */

let root: string;
let home: string;
let work: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'kimi-ts-probe-traps-'));
  home = join(root, 'home');
  work = join(root, 'work');
  await mkdir(work, { recursive: true });
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A `.git` folder that looks like a repository to git's probe (objects/ and refs/ there). */
async function fakeGitDir(dir: string): Promise<void> {
  await mkdir(join(dir, 'objects'), { recursive: true });
  await mkdir(join(dir, 'refs'), { recursive: true });
}

async function recordedPaths(store: CheckpointStore, id: string): Promise<string[]> {
  const { stdout } = await runGit(['ls-tree', '-r', '-z', '--name-only', id], { gitDir: store.gitDir });
  return nulFields(stdout).sort();
}

/** Records with a deadline: a git that waits is killed and the record fails instead of hanging the test. */
async function recordWithin(store: CheckpointStore): Promise<string[]> {
  const { checkpoint } = await store.record('turn 1', AbortSignal.timeout(20_000));
  return recordedPaths(store, checkpoint.id);
}

describe('git never waits on or reads without end a trap in a nested .git', () => {
  it('HEAD that is a FIFO: the record finishes and holds the folder files', async () => {
    await fakeGitDir(join(work, 'sub', '.git'));
    execFileSync('mkfifo', [join(work, 'sub', '.git', 'HEAD')]);
    await writeFile(join(work, 'sub', 'f.txt'), 'inner\n');
    await writeFile(join(work, 'top.txt'), 'top\n');
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    expect(await recordWithin(store)).toEqual(['0/sub/f.txt', '0/top.txt']);
  });

  it('commondir that is a FIFO', async () => {
    await fakeGitDir(join(work, 'sub', '.git'));
    await writeFile(join(work, 'sub', '.git', 'HEAD'), 'ref: refs/heads/main\n');
    execFileSync('mkfifo', [join(work, 'sub', '.git', 'commondir')]);
    await writeFile(join(work, 'sub', 'f.txt'), 'inner\n');
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    expect(await recordWithin(store)).toEqual(['0/sub/f.txt']);
  });

  it('a gitfile leading to a folder whose HEAD is a FIFO', async () => {
    await fakeGitDir(join(work, 'trap'));
    execFileSync('mkfifo', [join(work, 'trap', 'HEAD')]);
    await mkdir(join(work, 'sub'));
    await writeFile(join(work, 'sub', '.git'), `gitdir: ${join(work, 'trap')}\n`);
    await writeFile(join(work, 'sub', 'f.txt'), 'inner\n');
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    expect(await recordWithin(store)).toEqual(['0/sub/f.txt']);
  });

  it('a symlinked .git deep down leading to such a folder', async () => {
    await fakeGitDir(join(root, 'elsewhere'));
    execFileSync('mkfifo', [join(root, 'elsewhere', 'HEAD')]);
    await mkdir(join(work, 'a', 'b', 'node_modules', 'c'), { recursive: true });
    await symlink(join(root, 'elsewhere'), join(work, 'a', 'b', 'node_modules', 'c', '.git'));
    await writeFile(join(work, 'a', 'b', 'node_modules', 'c', 'f.txt'), 'inner\n');
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    expect(await recordWithin(store)).toEqual(['0/a/b/node_modules/c/f.txt']);
  });

  it('commondir that is a link to /dev/zero or a huge sparse file: git does not read it', async () => {
    await fakeGitDir(join(work, 'zero', '.git'));
    await writeFile(join(work, 'zero', '.git', 'HEAD'), 'ref: refs/heads/main\n');
    await symlink('/dev/zero', join(work, 'zero', '.git', 'commondir'));
    await writeFile(join(work, 'zero', 'f.txt'), 'z\n');
    await fakeGitDir(join(work, 'sparse', '.git'));
    await writeFile(join(work, 'sparse', '.git', 'HEAD'), 'ref: refs/heads/main\n');
    await writeFile(join(work, 'sparse', '.git', 'commondir'), '');
    await truncate(join(work, 'sparse', '.git', 'commondir'), 64 * 1024 * 1024 * 1024);
    await writeFile(join(work, 'sparse', 'f.txt'), 's\n');
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    expect(await recordWithin(store)).toEqual(['0/sparse/f.txt', '0/zero/f.txt']);
    expect(await readFile(join(work, 'zero', 'f.txt'), 'utf8')).toBe('z\n');
  });

  it('a .gitignore or .gitattributes that is a FIFO in a folder: the record finishes, that folder left out', async () => {
    await writeFile(join(work, 'top.txt'), 'top\n');
    await mkdir(join(work, 'ign'));
    await writeFile(join(work, 'ign', 'f.txt'), 'i\n');
    execFileSync('mkfifo', [join(work, 'ign', '.gitignore')]);
    await mkdir(join(work, 'attr', 'deep'), { recursive: true });
    await writeFile(join(work, 'attr', 'deep', 'f.txt'), 'a\n');
    execFileSync('mkfifo', [join(work, 'attr', '.gitattributes')]);
    await writeFile(join(work, '.gitignore'), 'build/\n');
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    expect(await recordWithin(store)).toEqual(['0/.gitignore', '0/top.txt']);
    // A later record, with a change elsewhere, still leaves them out and finishes.
    await writeFile(join(work, 'top.txt'), 'top 2\n');
    expect(await recordWithin(store)).toEqual(['0/.gitignore', '0/top.txt']);
  });

  it('a .gitignore at the top that is a FIFO: the record fails at once, git never runs on it', async () => {
    await writeFile(join(work, 'top.txt'), 'top\n');
    await mkdir(join(work, 'sub'));
    await writeFile(join(work, 'sub', '.gitignore'), 'x\n');
    execFileSync('mkfifo', [join(work, '.gitignore')]);
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    await expect(store.record('turn 1', AbortSignal.timeout(20_000))).rejects.toThrow(/\.gitignore/);
  });

  it('a walk past its folder bound gives up with an error instead of holding every path', async () => {
    for (let i = 0; i < 20; i++) await mkdir(join(work, `d${i}`, 'e'), { recursive: true });
    await expect(new GitTrapWalk(work, 30).read()).rejects.toThrow(/more than 30 folders/);
    expect((await new GitTrapWalk(work, 100).read()).nestedGit).toEqual([]);
  });

  it('a gitfile or symlinked .git through /proc/self/cwd (git resolves it in its own process, in the root)', async () => {
    // kimi-ts's own cwd is elsewhere; git runs in the root, where the trap is.
    expect(process.cwd()).not.toBe(work);
    await fakeGitDir(join(work, 'trap'));
    execFileSync('mkfifo', [join(work, 'trap', 'HEAD')]);
    await mkdir(join(work, 'viafile'));
    await writeFile(join(work, 'viafile', '.git'), 'gitdir: /proc/self/cwd/trap\n');
    await writeFile(join(work, 'viafile', 'f.txt'), 'a\n');
    await mkdir(join(work, 'vialink'));
    await symlink('/proc/self/cwd/trap', join(work, 'vialink', '.git'));
    await writeFile(join(work, 'vialink', 'f.txt'), 'b\n');
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    expect(await recordWithin(store)).toEqual(['0/viafile/f.txt', '0/vialink/f.txt']);
  });

  it('a .gitignore that is a symlink to /proc/self/fd/1 (git opens its own stdout: a pipe it writes)', async () => {
    await mkdir(join(work, 'ign'));
    await writeFile(join(work, 'ign', 'f.txt'), 'i\n');
    await symlink('/proc/self/fd/1', join(work, 'ign', '.gitignore'));
    await writeFile(join(work, 'top.txt'), 'top\n');
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    expect(await recordWithin(store)).toEqual(['0/top.txt']);
  });
});
