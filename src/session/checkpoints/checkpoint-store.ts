import { existsSync } from 'node:fs';
import { lstat, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { secretNameReason } from '../../policy/index.js';
import { workDirKey } from '../work-dir-key.js';
import { type CheckpointInfo, parseCheckpointMessage, type SkippedFile } from './checkpoint-info.js';
import { nulFields, runGit } from './git-runner.js';

/** Files larger than this are noted as not restorable instead of being stored (10 MiB). */
export const DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024;

/** The private store of a work dir's checkpoints. */
export function checkpointStoreDir(home: string, workDir: string): string {
  return join(home, 'checkpoints', workDirKey(workDir), 'store.git');
}

export interface CheckpointStoreOptions {
  /** kimi-ts's data folder: the store lives under it, never in the user's repository. */
  home: string;
  sessionId: string;
  /** The work dir first, then the add-dirs: the folders a checkpoint records. */
  roots: readonly string[];
  maxFileBytes?: number | undefined;
}

/**
 * Checkpoints of the work tree, in a private git object store under the agent's home
 * (`<home>/checkpoints/<work dir key>/store.git`). The user's `.git`, index, branches and stash are
 * never read or written: the store has its own git dir and one index per recorded folder, and runs
 * git with no system or global config. Each checkpoint is a commit whose tree holds one sub-tree per
 * root (`0/`, `1/`, …) and whose message is a JSON manifest; refs name them per session
 * (`refs/kimi-ts/<session>/<seq>`), so old ones can be pruned one by one.
 */
export class CheckpointStore {
  private constructor(
    readonly gitDir: string,
    private readonly options: CheckpointStoreOptions,
    private seq: number,
    private latest: CheckpointInfo | null,
    /** The tree each root had at the latest checkpoint, so an unchanged root costs one git call. */
    private rootTrees: string[],
  ) {}

  static async open(options: CheckpointStoreOptions): Promise<CheckpointStore> {
    const gitDir = checkpointStoreDir(options.home, options.roots[0] ?? '.');
    if (!existsSync(join(gitDir, 'HEAD'))) {
      await mkdir(gitDir, { recursive: true, mode: 0o700 });
      await runGit(['init', '--bare', '--quiet', gitDir], { gitDir });
    }
    const store = new CheckpointStore(gitDir, options, 0, null, []);
    const existing = await store.list();
    const last = existing.at(-1) ?? null;
    store.seq = last?.seq ?? 0;
    if (last && last.roots.join('\0') === options.roots.join('\0')) {
      store.latest = last;
      store.rootTrees = await store.subTrees(last.tree);
    }
    return store;
  }

  get roots(): readonly string[] {
    return this.options.roots;
  }

  /** The checkpoints of this session, oldest first. */
  async list(signal?: AbortSignal): Promise<CheckpointInfo[]> {
    const { stdout } = await runGit(
      [
        'for-each-ref',
        '--sort=refname',
        '--format=%(objectname)%00%(refname)%00%(tree)%00%(contents)%00',
        `refs/kimi-ts/${this.options.sessionId}/`,
      ],
      { gitDir: this.gitDir, signal },
    );
    const fields = nulFields(stdout).map((f) => f.replace(/^\n/, ''));
    const out: CheckpointInfo[] = [];
    for (let i = 0; i + 3 < fields.length; i += 4) {
      const [id, ref, tree, message] = [fields[i], fields[i + 1], fields[i + 2], fields[i + 3]];
      if (!id || !ref || !tree || message === undefined) continue;
      const info = parseCheckpointMessage(id, ref, tree, message);
      if (info) out.push(info);
    }
    return out;
  }

  /** The tree of each root inside a checkpoint's top tree. */
  private async subTrees(top: string): Promise<string[]> {
    const { stdout } = await runGit(['ls-tree', '-z', top], { gitDir: this.gitDir });
    const trees: string[] = [];
    for (const entry of nulFields(stdout)) {
      const [meta, name] = entry.split('\t');
      const id = meta?.split(' ')[2];
      if (id && name !== undefined) trees[Number(name)] = id;
    }
    return trees;
  }

  /**
   * Records the roots as they are now. When nothing changed since this session's last checkpoint
   * the last one is returned (`created: false`) and no commit is made.
   */
  async record(
    label: string,
    signal?: AbortSignal,
  ): Promise<{ checkpoint: CheckpointInfo; created: boolean }> {
    const trees: string[] = [];
    const skipped: SkippedFile[] = [];
    let changed = this.latest === null;
    for (const [index, root] of this.options.roots.entries()) {
      const recorded = await this.recordRoot(index, root, signal);
      trees.push(recorded.tree);
      skipped.push(...recorded.skipped);
      changed ||= recorded.tree !== this.rootTrees[index];
    }
    if (!changed && this.latest) return { checkpoint: this.latest, created: false };
    const listing = trees.map((tree, index) => `040000 tree ${tree}\t${index}`).join('\n');
    const top = (await runGit(['mktree'], { gitDir: this.gitDir, input: `${listing}\n`, signal })).stdout
      .toString('utf8')
      .trim();
    this.rootTrees = trees;
    if (this.latest && this.latest.tree === top) return { checkpoint: this.latest, created: false };
    const seq = this.seq + 1;
    const createdAt = Date.now();
    const manifest = { label, seq, createdAt, roots: this.options.roots, skipped };
    const commit = (
      await runGit(['commit-tree', top, '-F', '-'], {
        gitDir: this.gitDir,
        input: JSON.stringify(manifest),
        signal,
      })
    ).stdout
      .toString('utf8')
      .trim();
    const ref = `refs/kimi-ts/${this.options.sessionId}/${String(seq).padStart(6, '0')}`;
    await runGit(['update-ref', ref, commit], { gitDir: this.gitDir, signal });
    const checkpoint: CheckpointInfo = {
      id: commit,
      ref,
      tree: top,
      ...manifest,
      roots: [...this.options.roots],
    };
    this.seq = seq;
    this.latest = checkpoint;
    return { checkpoint, created: true };
  }

  /** Stages one root in its own index (a stat cache, so unchanged files cost nothing) and writes its tree. */
  private async recordRoot(
    index: number,
    root: string,
    signal: AbortSignal | undefined,
  ): Promise<{ tree: string; skipped: SkippedFile[] }> {
    const git = {
      gitDir: this.gitDir,
      workTree: root,
      indexFile: join(this.gitDir, `index-${index}`),
      signal,
    };
    const userExcludes = join(root, '.git', 'info', 'exclude');
    const excludes = existsSync(userExcludes) ? ['-c', `core.excludesFile=${userExcludes}`] : [];
    const candidates = nulFields(
      (
        await runGit(
          [...excludes, 'ls-files', '-z', '--others', '--modified', '--deleted', '--exclude-standard'],
          git,
        )
      ).stdout,
    );
    const maxBytes = this.options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    const skipped: SkippedFile[] = [];
    for (const path of new Set(candidates)) {
      if (secretNameReason(path) !== null) {
        skipped.push({ root: index, path, reason: 'sensitive' });
        continue;
      }
      const stats = await lstat(join(root, path)).catch(() => null);
      if (stats?.isFile() && stats.size > maxBytes) skipped.push({ root: index, path, reason: 'too_large' });
    }
    const known = this.rootTrees[index];
    // Nothing but files that are never recorded differs from the index: the root's tree is as it was.
    if (
      known &&
      candidates.every((path) => skipped.some((s) => s.path === path)) &&
      !(await this.indexHolds(git, skipped))
    ) {
      return { tree: known, skipped };
    }
    const excluded = skipped.map((s) => `:(exclude,literal)${s.path}`);
    await runGit(
      [...excludes, 'add', '-A', '--ignore-errors', '--pathspec-from-file=-', '--pathspec-file-nul'],
      {
        ...git,
        input: ['.', ...excluded].join('\0'),
        // 1: some files vanished or could not be read while adding; the rest is recorded.
        okCodes: [1],
      },
    );
    if (skipped.length) {
      // A file that grew past the cap (or a secret added earlier by name) must not keep an old copy.
      await runGit(
        ['rm', '--cached', '-q', '--ignore-unmatch', '--pathspec-from-file=-', '--pathspec-file-nul'],
        {
          ...git,
          input: skipped.map((s) => `:(literal)${s.path}`).join('\0'),
        },
      );
    }
    const tree = (await runGit(['write-tree'], git)).stdout.toString('utf8').trim();
    return { tree, skipped };
  }

  /** Whether the index still holds one of `skipped` (a file that grew past the cap since). */
  private async indexHolds(
    git: { gitDir: string; indexFile: string },
    skipped: readonly SkippedFile[],
  ): Promise<boolean> {
    // `ls-files` takes no --pathspec-from-file: the paths go as arguments, a bounded number at a time.
    for (let start = 0; start < skipped.length; start += 500) {
      const specs = skipped.slice(start, start + 500).map((s) => `:(literal)${s.path}`);
      const { stdout } = await runGit(['ls-files', '-z', '--cached', '--', ...specs], git);
      if (stdout.length > 0) return true;
    }
    return false;
  }
}
