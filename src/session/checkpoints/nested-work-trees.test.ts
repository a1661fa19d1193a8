import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyRestore } from './apply-restore.js';
import { CheckpointStore } from './checkpoint-store.js';
import { nulFields, runGit } from './git-runner.js';
import { nestedRepositories } from './nested-repositories.js';
import { NESTED_PLACEHOLDER } from './nested-work-trees.js';
import { planRestore } from './restore-plan.js';
import { sessionIndexFile } from './session-index.js';

let root: string;
let home: string;
let work: string;
let outside: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'kimi-ts-nested-ckpt-'));
  home = join(root, 'home');
  work = join(root, 'work');
  outside = join(root, 'outside');
  await mkdir(work, { recursive: true });
  await mkdir(outside);
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Makes `dir` a repository with its files committed (a vendored checkout). */
function repoAt(dir: string): void {
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
      cwd: dir,
      stdio: 'ignore',
    });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '--allow-empty', '-m', 'init');
}

/** Every path a checkpoint's tree holds (`0/…`), with its mode. */
async function treeOf(store: CheckpointStore, id: string): Promise<Map<string, string>> {
  const { stdout } = await runGit(['ls-tree', '-r', '-z', id], { gitDir: store.gitDir });
  const out = new Map<string, string>();
  for (const entry of nulFields(stdout)) {
    const [meta, path] = entry.split('\t');
    if (meta && path) out.set(path, meta.split(' ')[0] ?? '');
  }
  return out;
}

async function rewind(store: CheckpointStore, targetId: string) {
  const now = await store.record('before rewind');
  const plan = await planRestore(store.gitDir, now.checkpoint.id, targetId, {});
  return applyRestore(store.gitDir, store.roots, plan);
}

/** A command that leaves a marker file when git runs it: it must never run. */
async function markerCommand(name: string): Promise<{ command: string; marker: string }> {
  const marker = join(root, `${name}-ran`);
  const script = join(root, `${name}.sh`);
  await writeFile(script, `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 });
  return { command: script, marker };
}

describe('checkpoints hold the files inside nested repositories', () => {
  it('records them as files (never a gitlink, never .git) and a rewind brings them back', async () => {
    await writeFile(join(work, 'top.txt'), 'top-1\n');
    await mkdir(join(work, 'lib'));
    await writeFile(join(work, 'lib', 'inner.txt'), 'inner-1\n');
    repoAt(join(work, 'lib'));
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    const before = await store.record('turn 1');
    const tree = await treeOf(store, before.checkpoint.id);
    expect([...tree.keys()].sort()).toEqual(['0/lib/inner.txt', '0/top.txt']);
    expect(await nestedRepositories(store.gitDir, [before.checkpoint.id])).toEqual([]);

    await writeFile(join(work, 'lib', 'inner.txt'), 'inner-2\n');
    await writeFile(join(work, 'lib', 'new.txt'), 'made by the turn\n');
    await rm(join(work, 'top.txt'));
    const report = await rewind(store, before.checkpoint.id);
    expect(report.left).toEqual([]);
    expect(await readFile(join(work, 'lib', 'inner.txt'), 'utf8')).toBe('inner-1\n');
    expect(existsSync(join(work, 'lib', 'new.txt'))).toBe(false);
    expect(await readFile(join(work, 'top.txt'), 'utf8')).toBe('top-1\n');
    // Its own repository is as it was: the rewind wrote only work-tree files.
    expect(existsSync(join(work, 'lib', '.git', 'HEAD'))).toBe(true);
  });

  it('keeps its .gitignore, the size cap and secret-file skipping, and leaves the placeholder out of the tree', async () => {
    await mkdir(join(work, 'lib'));
    await writeFile(join(work, 'lib', '.gitignore'), '*.log\n');
    await writeFile(join(work, 'lib', 'debug.log'), 'ignored\n');
    await writeFile(join(work, 'lib', '.env'), 'TOKEN=secret\n');
    await writeFile(join(work, 'lib', 'big.bin'), Buffer.alloc(2048));
    await writeFile(join(work, 'lib', 'ok.txt'), 'ok\n');
    repoAt(join(work, 'lib'));
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work], maxFileBytes: 1024 });
    const { checkpoint } = await store.record('turn 1');
    expect([...(await treeOf(store, checkpoint.id)).keys()].sort()).toEqual([
      '0/lib/.gitignore',
      '0/lib/ok.txt',
    ]);
    expect(checkpoint.skipped.map((s) => [s.path, s.reason]).sort()).toEqual([
      ['lib/.env', 'sensitive'],
      ['lib/big.bin', 'too_large'],
    ]);
    const index = sessionIndexFile(store.gitDir, 's1', work);
    const { stdout } = await runGit(['ls-files', '-z', '--cached'], {
      gitDir: store.gitDir,
      workTree: work,
      indexFile: index,
    });
    expect(nulFields(stdout).some((path) => path.includes(NESTED_PLACEHOLDER))).toBe(false);
  });

  it("never runs the nested repository's core.fsmonitor, hooks or filters", async () => {
    await mkdir(join(work, 'lib'));
    await writeFile(join(work, 'lib', 'inner.txt'), 'inner-1\n');
    repoAt(join(work, 'lib'));
    const fsmonitor = await markerCommand('fsmonitor');
    const filter = await markerCommand('filter');
    const hook = await markerCommand('hook');
    const config = join(work, 'lib', '.git', 'config');
    await writeFile(
      config,
      `${await readFile(config, 'utf8')}[core]\n\tfsmonitor = ${fsmonitor.command}\n\thooksPath = ${root}\n` +
        `[filter "x"]\n\tclean = ${filter.command}\n\tsmudge = ${filter.command}\n`,
    );
    await writeFile(
      join(work, 'lib', '.git', 'hooks', 'post-index-change'),
      `#!/bin/sh\ntouch '${hook.marker}'\n`,
      {
        mode: 0o755,
      },
    );
    await writeFile(join(work, 'lib', '.gitattributes'), '* filter=x\n');
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    const before = await store.record('turn 1');
    await writeFile(join(work, 'lib', 'inner.txt'), 'inner-2\n');
    await store.record('turn 2');
    await rewind(store, before.checkpoint.id);
    expect(await readFile(join(work, 'lib', 'inner.txt'), 'utf8')).toBe('inner-1\n');
    expect(existsSync(fsmonitor.marker)).toBe(false);
    expect(existsSync(filter.marker)).toBe(false);
    expect(existsSync(hook.marker)).toBe(false);
  });

  it('a .git that is a symlink or a gitfile to a repository elsewhere: its files are recorded, nothing of elsewhere', async () => {
    const elsewhere = join(outside, 'repo');
    await mkdir(elsewhere);
    await writeFile(join(elsewhere, 'secret-plan.txt'), 'outside the work dir\n');
    repoAt(elsewhere);
    const fsmonitor = await markerCommand('fsmonitor');
    const config = join(elsewhere, '.git', 'config');
    await writeFile(config, `${await readFile(config, 'utf8')}[core]\n\tfsmonitor = ${fsmonitor.command}\n`);
    await mkdir(join(work, 'linked'));
    await writeFile(join(work, 'linked', 'a.txt'), 'a\n');
    await symlink(join(elsewhere, '.git'), join(work, 'linked', '.git'));
    await mkdir(join(work, 'gitfile'));
    await writeFile(join(work, 'gitfile', 'b.txt'), 'b\n');
    await writeFile(join(work, 'gitfile', '.git'), `gitdir: ${join(elsewhere, '.git')}\n`);
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    const before = await store.record('turn 1');
    const tree = await treeOf(store, before.checkpoint.id);
    expect([...tree.keys()].sort()).toEqual(['0/gitfile/b.txt', '0/linked/a.txt']);

    await writeFile(join(work, 'linked', 'a.txt'), 'a-2\n');
    await writeFile(join(work, 'gitfile', 'b.txt'), 'b-2\n');
    const report = await rewind(store, before.checkpoint.id);
    expect(report.left).toEqual([]);
    expect(await readFile(join(work, 'linked', 'a.txt'), 'utf8')).toBe('a\n');
    expect(await readFile(join(work, 'gitfile', 'b.txt'), 'utf8')).toBe('b\n');
    expect(existsSync(fsmonitor.marker)).toBe(false);
    expect((await readdir(elsewhere)).sort()).toEqual(['.git', 'secret-plan.txt']);
  });

  it('a repository inside a nested repository is followed too', async () => {
    await mkdir(join(work, 'a', 'b', 'c'), { recursive: true });
    await writeFile(join(work, 'a', 'one.txt'), '1\n');
    await writeFile(join(work, 'a', 'b', 'two.txt'), '2\n');
    await writeFile(join(work, 'a', 'b', 'c', 'three.txt'), '3\n');
    repoAt(join(work, 'a', 'b', 'c'));
    repoAt(join(work, 'a', 'b'));
    repoAt(join(work, 'a'));
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    const before = await store.record('turn 1');
    const tree = await treeOf(store, before.checkpoint.id);
    expect([...tree.keys()].sort()).toEqual(['0/a/b/c/three.txt', '0/a/b/two.txt', '0/a/one.txt']);
    expect([...tree.values()].every((mode) => mode === '100644')).toBe(true);

    await writeFile(join(work, 'a', 'b', 'c', 'three.txt'), 'changed\n');
    const report = await rewind(store, before.checkpoint.id);
    expect(report.applied.map((change) => change.path)).toEqual(['a/b/c/three.txt']);
    expect(await readFile(join(work, 'a', 'b', 'c', 'three.txt'), 'utf8')).toBe('3\n');
  });

  it('a symlink inside it that leads out is recorded as a link, never followed; a rewind writes nothing outside', async () => {
    await writeFile(join(outside, 'target.txt'), 'outside\n');
    await mkdir(join(work, 'lib'));
    await writeFile(join(work, 'lib', 'inner.txt'), 'inner-1\n');
    await symlink(join(outside, 'target.txt'), join(work, 'lib', 'out'));
    repoAt(join(work, 'lib'));
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    const before = await store.record('turn 1');
    expect((await treeOf(store, before.checkpoint.id)).get('0/lib/out')).toBe('120000');

    // The turn deletes the nested repository; then a symlink to a folder outside stands in its place.
    await rm(join(work, 'lib'), { recursive: true });
    const now = await store.record('turn 2');
    await symlink(outside, join(work, 'lib'));
    const plan = await planRestore(store.gitDir, now.checkpoint.id, before.checkpoint.id, {});
    const report = await applyRestore(store.gitDir, store.roots, plan);
    expect(report.applied).toEqual([]);
    expect(report.left.map((left) => left.change.path).sort()).toEqual(['lib/inner.txt', 'lib/out']);
    expect(await readdir(outside)).toEqual(['target.txt']);
    expect(await readFile(join(outside, 'target.txt'), 'utf8')).toBe('outside\n');
  });

  it('a file in it changed by someone else between turns is left unless confirmed', async () => {
    await mkdir(join(work, 'lib'));
    await writeFile(join(work, 'lib', 'inner.txt'), 'inner-1\n');
    repoAt(join(work, 'lib'));
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    const before = await store.record('turn 1');
    await writeFile(join(work, 'lib', 'inner.txt'), 'by the turn\n');
    const since = await store.record('end of turn 1');
    await writeFile(join(work, 'lib', 'inner.txt'), 'by the person\n');
    const now = await store.record('before rewind');
    const plan = await planRestore(store.gitDir, now.checkpoint.id, before.checkpoint.id, {
      since: since.checkpoint.id,
    });
    expect(plan).toEqual([expect.objectContaining({ path: 'lib/inner.txt', changedElsewhere: true })]);
    const report = await applyRestore(store.gitDir, store.roots, plan);
    expect(report.left.map((left) => left.reason)).toEqual(['changed since by someone else']);
    expect(await readFile(join(work, 'lib', 'inner.txt'), 'utf8')).toBe('by the person\n');
  });

  it('an index from before (a gitlink for the folder) is rid of it: the next checkpoint holds the files', async () => {
    await mkdir(join(work, 'lib'));
    await writeFile(join(work, 'lib', 'inner.txt'), 'inner-1\n');
    repoAt(join(work, 'lib'));
    await writeFile(join(work, 'top.txt'), 'top\n');
    const first = await CheckpointStore.open({ home, sessionId: 's0', roots: [work] });
    await first.record('turn 1');
    // What an older kimi-ts left: the session index holds lib as a gitlink.
    const index = sessionIndexFile(first.gitDir, 's0', work);
    const git = { gitDir: first.gitDir, workTree: work, indexFile: index };
    await runGit(['rm', '-r', '-q', '--cached', 'lib'], git);
    await runGit(['add', 'lib'], git);
    const staged = nulFields((await runGit(['ls-files', '-z', '--stage'], git)).stdout);
    expect(staged.some((entry) => entry.startsWith('160000'))).toBe(true);

    // A new session starts from a copy of that index.
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    await writeFile(join(work, 'top.txt'), 'top-2\n');
    const { checkpoint } = await store.record('turn 1');
    const tree = await treeOf(store, checkpoint.id);
    expect([...tree.keys()].sort()).toEqual(['0/lib/inner.txt', '0/top.txt']);
  });

  it('a repository a turn created: its files go, its .git stays and is named as kept', async () => {
    await writeFile(join(work, 'top.txt'), 'top\n');
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    const before = await store.record('turn 1');
    await mkdir(join(work, 'vendor', 'pkg'), { recursive: true });
    await writeFile(join(work, 'vendor', 'pkg', 'index.js'), 'x\n');
    repoAt(join(work, 'vendor', 'pkg'));
    const report = await rewind(store, before.checkpoint.id);
    expect(report.applied.map((change) => [change.kind, change.path])).toEqual([
      ['remove', 'vendor/pkg/index.js'],
    ]);
    expect(existsSync(join(work, 'vendor', 'pkg', 'index.js'))).toBe(false);
    expect(existsSync(join(work, 'vendor', 'pkg', '.git', 'HEAD'))).toBe(true);
    expect(report.kept).toEqual([
      { root: 0, path: 'vendor/pkg/.git', reason: expect.stringContaining("a repository's own git folder") },
    ]);
  });

  it('a repository a turn deleted: its files come back (its history was never recorded)', async () => {
    await mkdir(join(work, 'lib'));
    await writeFile(join(work, 'lib', 'inner.txt'), 'inner-1\n');
    repoAt(join(work, 'lib'));
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    const before = await store.record('turn 1');
    await rm(join(work, 'lib'), { recursive: true });
    const report = await rewind(store, before.checkpoint.id);
    expect(report.left).toEqual([]);
    expect(await readFile(join(work, 'lib', 'inner.txt'), 'utf8')).toBe('inner-1\n');
    expect(existsSync(join(work, 'lib', '.git'))).toBe(false);
  });

  it('its .gitattributes (text=auto, ident, an eol) never rewrites the bytes a rewind gives back', async () => {
    await mkdir(join(work, 'lib'));
    await writeFile(join(work, 'lib', '.gitattributes'), '* text=auto\n*.txt ident\n*.cfg eol=crlf\n');
    const crlf = 'one\r\ntwo $Id: 0123456789abcdef $\r\n';
    await writeFile(join(work, 'lib', 'a.txt'), crlf);
    await writeFile(join(work, 'lib', 'b.cfg'), 'lf only\n');
    repoAt(join(work, 'lib'));
    await writeFile(join(work, '.gitattributes'), '* text=auto\n');
    await writeFile(join(work, 'top.txt'), 'top\r\n');
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    const before = await store.record('turn 1');
    for (const file of ['lib/a.txt', 'lib/b.cfg', 'top.txt']) await writeFile(join(work, file), 'changed\n');
    const report = await rewind(store, before.checkpoint.id);
    expect(report.left).toEqual([]);
    expect(await readFile(join(work, 'lib', 'a.txt'), 'utf8')).toBe(crlf);
    expect(await readFile(join(work, 'lib', 'b.cfg'), 'utf8')).toBe('lf only\n');
    expect(await readFile(join(work, 'top.txt'), 'utf8')).toBe('top\r\n');
  });

  it('a .git that is a FIFO or a link to a device, and folder names that look like pathspec magic: recorded, nothing waits', async () => {
    const names = ['fifo', 'dev', ':(exclude)*', '*', 'a\nb'];
    for (const name of names) {
      await mkdir(join(work, name));
      await writeFile(join(work, name, 'f.txt'), `${name}\n`);
    }
    execFileSync('mkfifo', [join(work, 'fifo', '.git')]);
    await symlink('/dev/zero', join(work, 'dev', '.git'));
    for (const name of [':(exclude)*', '*', 'a\nb']) repoAt(join(work, name));
    await writeFile(join(work, 'top.txt'), 'top\n');
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    const before = await store.record('turn 1');
    const tree = await treeOf(store, before.checkpoint.id);
    expect([...tree.keys()].sort()).toEqual(
      ['top.txt', ...names.map((name) => `${name}/f.txt`)].map((path) => `0/${path}`).sort(),
    );
    for (const name of names) await writeFile(join(work, name, 'f.txt'), 'changed\n');
    const report = await rewind(store, before.checkpoint.id);
    expect(report.applied).toHaveLength(names.length);
    for (const name of names) expect(await readFile(join(work, name, 'f.txt'), 'utf8')).toBe(`${name}\n`);
  });

  it('a recorded file that a turn turned into a nested repository: its files are recorded, the rewind keeps the .git', async () => {
    await writeFile(join(work, 'sub'), 'a file\n');
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    const before = await store.record('turn 1');
    await rm(join(work, 'sub'));
    await mkdir(join(work, 'sub'));
    await writeFile(join(work, 'sub', 'inner.txt'), 'inner\n');
    repoAt(join(work, 'sub'));
    const after = await store.record('turn 2');
    expect([...(await treeOf(store, after.checkpoint.id)).keys()]).toEqual(['0/sub/inner.txt']);
    const report = await rewind(store, before.checkpoint.id);
    expect(report.applied.map((change) => [change.kind, change.path])).toEqual([['remove', 'sub/inner.txt']]);
    // The file is not put back over the repository's .git: that stays, and the report says so.
    expect(report.left.map((left) => left.change.path)).toEqual(['sub']);
    expect(report.kept).toContainEqual({
      root: 0,
      path: 'sub/.git',
      reason: expect.stringContaining("a repository's own git folder"),
    });
    expect(existsSync(join(work, 'sub', '.git', 'HEAD'))).toBe(true);
  });

  it('many files at once (the whole root staged in one `git add`): a nested repository still holds files, not a commit', async () => {
    await mkdir(join(work, 'lib', 'src'), { recursive: true });
    for (let i = 0; i < 250; i++) await writeFile(join(work, 'lib', 'src', `f${i}.txt`), `${i}\n`);
    await writeFile(join(work, 'top.txt'), 'top\n');
    repoAt(join(work, 'lib'));
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    const { checkpoint } = await store.record('turn 1');
    const tree = await treeOf(store, checkpoint.id);
    expect(tree.size).toBe(251);
    expect([...tree.values()].every((mode) => mode === '100644')).toBe(true);
    expect(tree.has('0/lib/src/f249.txt')).toBe(true);
  });

  it('repositories nested deeper than one record follows: never a gitlink; the next record goes on', async () => {
    const levels = 40;
    let dir = work;
    for (let level = 0; level < levels; level++) {
      dir = join(dir, `r${level}`);
      // What git takes for a repository: HEAD, objects, refs.
      await mkdir(join(dir, '.git', 'objects'), { recursive: true });
      await mkdir(join(dir, '.git', 'refs'));
      await writeFile(join(dir, '.git', 'HEAD'), 'ref: refs/heads/main\n');
      await writeFile(join(dir, 'f.txt'), `${level}\n`);
    }
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    const first = await treeOf(store, (await store.record('turn 1')).checkpoint.id);
    expect([...first.values()].every((mode) => mode === '100644')).toBe(true);
    expect(first.size).toBeGreaterThan(0);
    expect(first.size).toBeLessThan(levels);
    await writeFile(join(work, 'r0', 'f.txt'), 'changed\n');
    const second = await treeOf(store, (await store.record('turn 2')).checkpoint.id);
    expect(second.size).toBe(levels);
    expect([...second.values()].every((mode) => mode === '100644')).toBe(true);
  });
});
