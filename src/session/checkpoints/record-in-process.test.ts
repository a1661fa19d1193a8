import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, readdirSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, stat, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyRestore } from './apply-restore.js';
import { CheckpointStore } from './checkpoint-store.js';
import { IN_PROCESS_MAX_FILES, recordRootInProcess } from './record-in-process.js';
import { planRestore } from './restore-plan.js';
import { sessionIndexFile } from './session-index.js';
import { writeStoreSkeleton } from './store-objects.js';
import { RACY_NS, statWorkTree, type WorkTreeStat } from './work-tree-stat.js';

let root: string;
let home: string;
let work: string;
let gitLog: string;
let savedPath: string | undefined;

/** A `git` first on PATH that notes each run: the in-process record must start none. */
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'kimi-ts-record-in-process-'));
  home = join(root, 'home');
  work = join(root, 'work');
  await mkdir(work, { recursive: true });
  const bin = join(root, 'bin');
  await mkdir(bin);
  gitLog = join(root, 'git-runs.log');
  await writeFile(gitLog, '');
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  await writeFile(join(bin, 'git'), `#!/bin/sh\necho "$*" >> '${gitLog}'\nexec '${real}' "$@"\n`);
  chmodSync(join(bin, 'git'), 0o755);
  savedPath = process.env.PATH;
  process.env.PATH = `${bin}:${savedPath}`;
});

afterEach(async () => {
  process.env.PATH = savedPath;
  await rm(root, { recursive: true, force: true });
});

const gitRunCount = async () => (await readFile(gitLog, 'utf8')).split('\n').filter(Boolean).length;

/** Waits until every file under the work dir is older than the racy window (a picture trusts it then). */
async function untilSettled(dirs: string[] = [work]): Promise<void> {
  let newest = 0n;
  for (const dir of dirs)
    for (const name of readdirSync(dir, { recursive: true }) as string[]) {
      const s = lstatSync(join(dir, name), { bigint: true });
      for (const t of [s.mtimeNs, s.ctimeNs]) if (t > newest) newest = t;
    }
  const settled = newest + RACY_NS + 1_000_000n;
  while (BigInt(Date.now()) * 1_000_000n <= settled) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** git over the store, with a given index (none: the store's own, unused by checkpoints). */
const storeGit = (gitDir: string, args: string[], indexFile?: string) =>
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

/** What git itself writes for the work dir (a throwaway index), minus `excluded` paths: the tree and the index's listing. */
function recordByGit(gitDir: string, excluded: string[] = []): { tree: string; staged: string } {
  const index = join(root, `git-index-${Math.random().toString(36).slice(2)}`);
  storeGit(gitDir, ['add', '-A', '--', '.', ...excluded.map((p) => `:(exclude,literal)${p}`)], index);
  return {
    tree: storeGit(gitDir, ['write-tree'], index).trim(),
    staged: storeGit(gitDir, ['ls-files', '-s'], index),
  };
}

async function plainFolder(): Promise<void> {
  await writeFile(join(work, 'notes.txt'), 'release 2.4\n');
  await writeFile(join(work, 'run.sh'), '#!/bin/sh\necho hi\n');
  await chmod(join(work, 'run.sh'), 0o755);
  await mkdir(join(work, 'src', 'deep'), { recursive: true });
  await writeFile(join(work, 'src', 'deep', 'b.ts'), 'export {};\n');
  await writeFile(join(work, 'src', 'a-b.ts'), 'a dash sorts before the folder\n');
  await writeFile(join(work, 'src', 'deep.txt'), 'a dot sorts after the folder\n');
  await mkdir(join(work, 'empty', 'inside'), { recursive: true });
  await symlink('notes.txt', join(work, 'link'));
}

describe('the first record of a small plain folder, without git', () => {
  it('writes the tree and the index git would write, starting no git process', async () => {
    await plainFolder();
    await untilSettled();
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    const first = await store.record('turn 1');
    expect(await gitRunCount()).toBe(0);
    const tree = storeGit(store.gitDir, ['rev-parse', `${first.checkpoint.id}:0`]).trim();
    const byGit = recordByGit(store.gitDir);
    expect(tree).toBe(byGit.tree);
    expect(storeGit(store.gitDir, ['fsck', '--strict', '--no-dangling'])).toBe('');
    // The session index is git's own: the same entries and modes, and a stat cache git trusts
    // (nothing listed as modified, `diff-files` finds nothing).
    const index = sessionIndexFile(store.gitDir, 's1', work);
    expect(storeGit(store.gitDir, ['ls-files', '-s'], index)).toBe(byGit.staged);
    expect(storeGit(store.gitDir, ['ls-files', '--modified', '--others', '--deleted'], index)).toBe('');
    expect(storeGit(store.gitDir, ['diff-files', '--name-only'], index)).toBe('');

    // The next record runs git over that index: only the changed file is new.
    await writeFile(join(work, 'src', 'deep', 'b.ts'), 'export const changed = 1;\n');
    const second = await store.record('turn 2');
    expect(second.created).toBe(true);
    expect(storeGit(store.gitDir, ['rev-parse', `${second.checkpoint.id}:0`]).trim()).toBe(
      recordByGit(store.gitDir).tree,
    );
  });

  it('is the index a later session of the folder starts from: it records only what changed since', async () => {
    await plainFolder();
    await untilSettled();
    const first = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    await first.record('turn 1');
    expect(await gitRunCount()).toBe(0);
    await writeFile(join(work, 'notes.txt'), 'release 2.5\n');
    const second = await CheckpointStore.open({ home, sessionId: 's2', roots: [work] });
    const { checkpoint } = await second.record('turn 1');
    expect(await gitRunCount()).toBeGreaterThan(0);
    const index = sessionIndexFile(second.gitDir, 's2', work);
    expect(storeGit(second.gitDir, ['ls-files', '--modified', '--others', '--deleted'], index)).toBe('');
    expect(storeGit(second.gitDir, ['rev-parse', `${checkpoint.id}:0`]).trim()).toBe(
      recordByGit(second.gitDir).tree,
    );
  });
  it('records each folder of a session (the work dir and an add-dir) into its own index', async () => {
    await plainFolder();
    const extra = join(root, 'extra');
    await mkdir(join(extra, 'docs'), { recursive: true });
    await writeFile(join(extra, 'docs', 'guide.md'), '# guide\n');
    await untilSettled([work, extra]);
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work, extra] });
    const { checkpoint } = await store.record('turn 1');
    expect(await gitRunCount()).toBe(0);
    expect(storeGit(store.gitDir, ['rev-parse', `${checkpoint.id}:0`]).trim()).toBe(
      recordByGit(store.gitDir).tree,
    );
    expect(storeGit(store.gitDir, ['show', `${checkpoint.id}:1/docs/guide.md`])).toBe('# guide\n');
    const extraIndex = sessionIndexFile(store.gitDir, 's1', extra);
    expect(
      execFileSync('git', ['ls-files', '--modified', '--others', '--deleted'], {
        cwd: extra,
        encoding: 'utf8',
        env: { ...process.env, GIT_DIR: store.gitDir, GIT_WORK_TREE: extra, GIT_INDEX_FILE: extraIndex },
      }),
    ).toBe('');
  });

  it('brings the files back from it on a rewind', async () => {
    await plainFolder();
    await untilSettled();
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    const before = await store.record('turn 1');
    expect(await gitRunCount()).toBe(0);
    await writeFile(join(work, 'notes.txt'), 'overwritten\n');
    await chmod(join(work, 'run.sh'), 0o644);
    await rm(join(work, 'src'), { recursive: true });
    await writeFile(join(work, 'created.txt'), 'new\n');
    const now = await store.record('before rewind');
    const plan = await planRestore(store.gitDir, now.checkpoint.id, before.checkpoint.id, {});
    const report = await applyRestore(store.gitDir, store.roots, plan);
    expect(report.left).toEqual([]);
    expect(await readFile(join(work, 'notes.txt'), 'utf8')).toBe('release 2.4\n');
    expect((await stat(join(work, 'run.sh'))).mode & 0o777).toBe(0o755);
    expect(await readFile(join(work, 'src', 'deep', 'b.ts'), 'utf8')).toBe('export {};\n');
    expect(existsSync(join(work, 'created.txt'))).toBe(false);
  });

  it('leaves out a secret name and a file over the size cap, and stores neither', async () => {
    await plainFolder();
    await writeFile(join(work, '.env'), 'API_KEY=sk-live-secret-in-env\n');
    await mkdir(join(work, 'keys'));
    await writeFile(join(work, 'keys', 'id_rsa'), 'PRIVATE KEY secret bytes\n');
    await writeFile(join(work, 'big.bin'), 'x'.repeat(2048));
    await untilSettled();
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work], maxFileBytes: 1024 });
    const { checkpoint } = await store.record('turn 1');
    expect(await gitRunCount()).toBe(0);
    expect(checkpoint.skipped).toEqual([
      { root: 0, path: '.env', reason: 'sensitive' },
      { root: 0, path: 'big.bin', reason: 'too_large' },
      { root: 0, path: 'keys/id_rsa', reason: 'sensitive' },
    ]);
    const tree = storeGit(store.gitDir, ['rev-parse', `${checkpoint.id}:0`]).trim();
    expect(tree).toBe(recordByGit(store.gitDir, ['.env', 'big.bin', 'keys/id_rsa']).tree);
    for (const file of ['.env', 'keys/id_rsa', 'big.bin']) {
      const id = storeGit(store.gitDir, ['hash-object', join(work, file)]).trim();
      expect(() => storeGit(store.gitDir, ['cat-file', '-e', id])).toThrow();
    }
  });

  it('is the record git makes of the same folder, skipped files and their order included', async () => {
    await plainFolder();
    await writeFile(join(work, '.env'), 'API_KEY=sk-live-secret-in-env\n');
    await writeFile(join(work, 'big.bin'), 'x'.repeat(2048));
    await untilSettled();
    const inProcess = await CheckpointStore.open({
      home,
      sessionId: 's1',
      roots: [work],
      maxFileBytes: 1024,
    });
    const mine = (await inProcess.record('turn 1')).checkpoint;
    expect(await gitRunCount()).toBe(0);
    // An (empty) exclude file of the user's repository makes the store ask git instead.
    await mkdir(join(work, '.git', 'info'), { recursive: true });
    await writeFile(join(work, '.git', 'info', 'exclude'), '');
    const byGit = await CheckpointStore.open({
      home: join(root, 'other-home'),
      sessionId: 's1',
      roots: [work],
      maxFileBytes: 1024,
    });
    const theirs = (await byGit.record('turn 1')).checkpoint;
    expect(await gitRunCount()).toBeGreaterThan(0);
    expect(mine.tree).toBe(theirs.tree);
    expect(mine.skipped).toEqual(theirs.skipped);
    expect(mine.modes).toEqual(theirs.modes);
  });
});

describe('what git must record itself', () => {
  it('a folder of more files than pay off in-process', async () => {
    for (let i = 0; i <= IN_PROCESS_MAX_FILES; i++) await writeFile(join(work, `f${i}.txt`), `${i}\n`);
    await untilSettled();
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    const { checkpoint } = await store.record('turn 1');
    expect(await gitRunCount()).toBeGreaterThan(0);
    const files = storeGit(store.gitDir, ['ls-tree', '-r', '--name-only', `${checkpoint.id}:0`]).trim();
    expect(files.split('\n')).toHaveLength(IN_PROCESS_MAX_FILES + 1);
  });

  it('a folder with a .gitignore: the ignored file is not recorded', async () => {
    await plainFolder();
    await writeFile(join(work, '.gitignore'), '*.log\nbuild/\n');
    await writeFile(join(work, 'debug.log'), 'noise\n');
    await mkdir(join(work, 'build'));
    await writeFile(join(work, 'build', 'out.js'), 'built\n');
    await untilSettled();
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    const { checkpoint } = await store.record('turn 1');
    expect(await gitRunCount()).toBeGreaterThan(0);
    const files = storeGit(store.gitDir, ['ls-tree', '-r', '--name-only', `${checkpoint.id}:0`]).split('\n');
    expect(files).toContain('notes.txt');
    expect(files).toContain('.gitignore');
    expect(files).not.toContain('debug.log');
    expect(files).not.toContain('build/out.js');
  });

  it("a folder whose repository excludes files in .git/info/exclude, or the user's global ignore file", async () => {
    await plainFolder();
    await mkdir(join(work, '.git', 'info'), { recursive: true });
    await writeFile(join(work, '.git', 'info', 'exclude'), 'notes.txt\n');
    await untilSettled();
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    const { checkpoint } = await store.record('turn 1');
    expect(await gitRunCount()).toBeGreaterThan(0);
    const files = storeGit(store.gitDir, ['ls-tree', '-r', '--name-only', `${checkpoint.id}:0`]).split('\n');
    expect(files).not.toContain('notes.txt');
    expect(files).toContain('run.sh');

    const savedHome = process.env.HOME;
    const savedXdg = process.env.XDG_CONFIG_HOME;
    const userHome = join(root, 'user-home');
    await mkdir(join(userHome, '.config', 'git'), { recursive: true });
    await writeFile(join(userHome, '.config', 'git', 'ignore'), 'run.sh\n');
    process.env.HOME = userHome;
    delete process.env.XDG_CONFIG_HOME;
    try {
      await rm(join(work, '.git'), { recursive: true });
      const other = await CheckpointStore.open({
        home: join(root, 'home-2'),
        sessionId: 's2',
        roots: [work],
      });
      const second = (await other.record('turn 1')).checkpoint;
      const names = storeGit(other.gitDir, ['ls-tree', '-r', '--name-only', `${second.id}:0`]).split('\n');
      expect(names).toContain('notes.txt');
      expect(names).not.toContain('run.sh');
    } finally {
      process.env.HOME = savedHome;
      if (savedXdg !== undefined) process.env.XDG_CONFIG_HOME = savedXdg;
    }
  });

  it('a folder holding a nested repository or a name git treats specially', async () => {
    await plainFolder();
    const picture = await settledPicture();
    expect(await inProcess(picture)).not.toBeNull();
    for (const name of ['.gitmodules', '.GIT', 'git~1', 'back\\slash', 'caf\u00e9']) {
      await writeFile(join(work, 'src', name), 'x');
      expect(await inProcess(await settledPicture())).toBeNull();
      await unlink(join(work, 'src', name));
    }
  });

  it('a file that vanished or changed between the picture and its read: no index, no tree', async () => {
    await plainFolder();
    const picture = await settledPicture();
    await unlink(join(work, 'src', 'deep', 'b.ts'));
    expect(await inProcess(picture)).toBeNull();
    await writeFile(join(work, 'src', 'deep', 'b.ts'), 'export {};\n');
    const again = await settledPicture();
    // Same size, new bytes: the stat differs from the picture's.
    await writeFile(join(work, 'notes.txt'), 'release 9.9\n');
    expect(await inProcess(again)).toBeNull();
    expect(existsSync(join(root, 'index'))).toBe(false);
  });
});

async function settledPicture(): Promise<WorkTreeStat> {
  await untilSettled();
  const picture = await statWorkTree(work);
  if (typeof picture === 'string') throw new Error(`picture ${picture}`);
  return picture;
}

async function inProcess(picture: WorkTreeStat) {
  const gitDir = join(root, 'bare.git');
  if (!existsSync(gitDir)) await writeStoreSkeleton(gitDir);
  return recordRootInProcess({
    gitDir,
    root: work,
    rootIndex: 0,
    picture,
    indexFile: join(root, 'index'),
    maxFileBytes: 1024 * 1024,
  });
}
