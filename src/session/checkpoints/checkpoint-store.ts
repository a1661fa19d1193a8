import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { secretNameReason } from '../../policy/index.js';
import { GitTrapWalk, isRuleFileTrap, trapsRefusal } from '../../util/git-walk-traps.js';
import { workDirKey } from '../work-dir-key.js';
import { type CheckpointInfo, parseCheckpointMessage, type SkippedFile } from './checkpoint-info.js';
import { noteFileModes } from './file-modes.js';
import { CheckpointStoreError, type GitRunOptions, nulFields, runGit } from './git-runner.js';
import { dropGitlinks, openNestedRepositories, placePlaceholders } from './nested-work-trees.js';
import { ObjectBatch } from './object-batch.js';
import { filesOver, isFolder, listCandidates } from './record-candidates.js';
import { recordRootInProcess } from './record-in-process.js';
import { prepareSessionIndex } from './session-index.js';
import {
  createStore,
  ensureStoreAttributes,
  writeCommit,
  writeRef,
  writeRootsTree,
} from './store-objects.js';
import { againWhileFilesVanish } from './vanished-files.js';
import { sameWorkTree, statWorkTree, type WorkTreeStat } from './work-tree-stat.js';

/** Files larger than this are noted as not restorable instead of being stored (10 MiB). */
export const DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024;

/** From this many changed files on, a record writes its new blobs into one pack file. */
const PACK_FROM_FILES = 200;

/** Up to this many changed files, `git add` is given their names (git then matches each path against every name). */
const NAMED_UP_TO = 200;

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
 * never read or written: the store has its own git dir and, per session, one index per recorded
 * folder (session-index.ts: sessions of one work dir share the objects, never an index), and runs
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
    /** The session's index file per root, once prepared (session-index.ts). */
    private readonly indexFiles: string[] = [],
    /**
     * The permission bits git cannot hold, as of the latest record; null until the session's first
     * record has looked at every file (its index may be a copy of another session's, listing only
     * what changed since).
     */
    private modes: Record<string, string> | null = null,
    /**
     * Per root, its stat picture taken when `rootTrees` was recorded (null: none to trust), with
     * the files skipped then: an unchanged picture is an unchanged tree, found without git.
     */
    private pictures: { picture: WorkTreeStat | null; skipped: SkippedFile[] }[] = [],
    /** Roots found too big for a picture: not walked again in this session (git alone, as before). */
    private readonly tooBig = new Set<number>(),
    /** Roots whose session index started empty in this process (not a copy of another session's). */
    private readonly startedEmpty = new Set<number>(),
    /** Roots whose index was rid of gitlinks in this process (nested-work-trees.ts). */
    private readonly gitlinksDropped = new Set<number>(),
    /** Per root, the walk that finds traps for git's nested-repository probe (git-probe-traps.ts). */
    private readonly trapWalks: GitTrapWalk[] = [],
    /** Whether `info/attributes` is in place: a store made here gets it before git first stages files. */
    private attributesInPlace = false,
  ) {}

  static async open(options: CheckpointStoreOptions): Promise<CheckpointStore> {
    const gitDir = checkpointStoreDir(options.home, options.roots[0] ?? '.');
    const created = !existsSync(join(gitDir, 'HEAD')) && (await createStore(gitDir));
    const store = new CheckpointStore(gitDir, options, 0, null, []);
    // A store this call made holds no checkpoint of any session yet.
    if (created) return store;
    ensureStoreAttributes(gitDir);
    store.attributesInPlace = true;
    const existing = await store.list();
    const last = existing.at(-1) ?? null;
    store.seq = last?.seq ?? 0;
    if (last && last.roots.join('\0') === options.roots.join('\0')) {
      store.latest = last;
      store.rootTrees = await store.subTrees(last.tree);
      store.modes = { ...last.modes };
    }
    return store;
  }

  get roots(): readonly string[] {
    return this.options.roots;
  }

  get sessionId(): string {
    return this.options.sessionId;
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
    const pictures: { picture: WorkTreeStat | null; skipped: SkippedFile[] }[] = [];
    let changed = this.latest === null;
    const fullScan = this.modes === null;
    const modes: Record<string, string> = { ...(this.modes ?? {}) };
    // Written at each way out below, before the ref (object-batch.ts).
    const objects = new ObjectBatch(this.gitDir);
    for (const [index, root] of this.options.roots.entries()) {
      const recorded = await this.recordRoot(index, root, objects, signal);
      trees.push(recorded.tree);
      skipped.push(...recorded.skipped);
      pictures.push({ picture: recorded.picture, skipped: recorded.skipped });
      changed ||= recorded.tree !== this.rootTrees[index];
      // The files that changed, and the ones already noted (a chmod alone changes no content).
      const noted = Object.keys(modes)
        .filter((key) => key.startsWith(`${index}/`))
        .map((key) => key.slice(String(index).length + 1));
      // A first record over an index that started empty already lists every file as changed.
      const look =
        fullScan && !this.startedEmpty.has(index)
          ? await this.allFiles(index, root, signal)
          : [...recorded.candidates, ...noted];
      changed = (await noteFileModes(modes, index, root, [...new Set(look)], signal)) || changed;
    }
    this.modes = modes;
    if (!changed && this.latest) {
      objects.flush();
      this.pictures = pictures;
      return { checkpoint: this.latest, created: false };
    }
    const top = writeRootsTree(objects, trees);
    signal?.throwIfAborted();
    if (this.latest && this.latest.tree === top && sameModes(this.latest.modes, modes)) {
      objects.flush();
      this.rootTrees = trees;
      this.pictures = pictures;
      return { checkpoint: this.latest, created: false };
    }
    const seq = this.seq + 1;
    const createdAt = Date.now();
    const manifest = { label, seq, createdAt, roots: this.options.roots, skipped, modes };
    const commit = writeCommit(objects, top, JSON.stringify(manifest), createdAt);
    signal?.throwIfAborted();
    objects.flush();
    this.rootTrees = trees;
    this.pictures = pictures;
    const ref = `refs/kimi-ts/${this.options.sessionId}/${String(seq).padStart(6, '0')}`;
    await writeRef(this.gitDir, ref, commit);
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

  /**
   * Stages one root in its own index (a stat cache, so unchanged files cost nothing) and writes its
   * tree; a root whose stat picture is the one of its last record is that record's tree, without git.
   * The picture is taken before git looks: a change git sees after it makes the next picture differ.
   */
  private async recordRoot(
    index: number,
    root: string,
    objects: ObjectBatch,
    signal: AbortSignal | undefined,
  ): Promise<{ tree: string; skipped: SkippedFile[]; candidates: string[]; picture: WorkTreeStat | null }> {
    const taken = this.tooBig.has(index) ? 'too-big' : await statWorkTree(root, signal);
    if (taken === 'too-big') this.tooBig.add(index);
    const picture = typeof taken === 'string' ? null : taken;
    const last = this.pictures[index];
    const known = this.rootTrees[index];
    if (known && picture && last?.picture && sameWorkTree(last.picture, picture))
      return { tree: known, skipped: last.skipped, candidates: [], picture };
    let indexFile = this.indexFiles[index];
    if (indexFile === undefined) {
      const prepared = await prepareSessionIndex(this.gitDir, this.options.sessionId, root);
      indexFile = prepared.file;
      if (prepared.empty) this.startedEmpty.add(index);
      this.indexFiles[index] = indexFile;
    }
    const maxBytes = this.options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    // No index yet: every file is new to git, and a small plain folder is recorded without it.
    if (picture && !existsSync(indexFile)) {
      const inProcess = await recordRootInProcess({
        gitDir: this.gitDir,
        objects,
        root,
        rootIndex: index,
        picture,
        indexFile,
        maxFileBytes: maxBytes,
        signal,
      });
      if (inProcess) return { ...inProcess, picture };
    }
    if (!this.attributesInPlace) ensureStoreAttributes(this.gitDir);
    this.attributesInPlace = true;
    const git = { gitDir: this.gitDir, workTree: root, indexFile, signal };
    const userExcludes = join(root, '.git', 'info', 'exclude');
    const excludes = existsSync(userExcludes) ? ['-c', `core.excludesFile=${userExcludes}`] : [];
    // An index from before nested repositories were recorded file by file may hold gitlinks.
    if (!this.gitlinksDropped.has(index)) {
      this.gitlinksDropped.add(index);
      if (!this.startedEmpty.has(index)) await dropGitlinks(git);
    }
    // Before git walks the root: what in it would make git wait or read without end (git-walk-traps.ts).
    this.trapWalks[index] ??= new GitTrapWalk(root);
    const traps = await this.trapWalks[index].read(signal);
    const refusal =
      trapsRefusal(traps) ??
      (isRuleFileTrap(userExcludes) ? 'its .git/info/exclude is not a plain file' : null);
    if (refusal !== null) throw new CheckpointStoreError(`${root} was not recorded: ${refusal}.`);
    // A nested `.git` git's probe must not open: the folder is walked as a plain one instead.
    await placePlaceholders(
      git,
      traps.nestedGit.map((folder) => `${folder}/`),
    );
    // A folder whose rule files git must not open is left out of every walk (its files unrecorded).
    const leftOut = traps.ruleFiles;
    const list = (specs: readonly string[]) => listCandidates(git, excludes, specs, leftOut);
    const opened = await openNestedRepositories(git, await list([]), list, (path) => isFolder(root, path));
    const candidates = opened.candidates;
    const skipped: SkippedFile[] = [];
    const unique = [...new Set(candidates)];
    const toSize: string[] = [];
    for (const path of unique) {
      if (secretNameReason(path) !== null) skipped.push({ root: index, path, reason: 'sensitive' });
      else toSize.push(path);
    }
    for (const path of await filesOver(root, toSize, maxBytes, signal))
      skipped.push({ root: index, path, reason: 'too_large' });
    const skippedPaths = new Set(skipped.map((s) => s.path));
    const recorded = unique.filter((path) => !skippedPaths.has(path));
    // Nothing but files that are never recorded differs from the index: the root's tree is as it was.
    if (known && recorded.length === 0 && !(await this.indexHolds(git, skipped))) {
      return { tree: known, skipped, candidates: unique, picture };
    }
    if (recorded.length > 0)
      await this.stage(git, excludes, recorded, skipped, [...opened.unopened, ...leftOut]);
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
    return { tree, skipped, candidates: unique, picture };
  }

  /** Every file the session's index of a root holds (after a record: what the checkpoint holds). */
  private async allFiles(index: number, root: string, signal: AbortSignal | undefined): Promise<string[]> {
    const indexFile = this.indexFiles[index];
    if (indexFile === undefined) return [];
    const { stdout } = await runGit(['ls-files', '-z', '--cached'], {
      gitDir: this.gitDir,
      workTree: root,
      indexFile,
      signal,
    });
    return nulFields(stdout);
  }

  /**
   * Stages the changed files. A few: named one by one, so git looks at them alone instead of walking
   * the whole tree again. Many (a first checkpoint): the whole root, minus the files never recorded,
   * with the new blobs written into one pack instead of a loose object file each (creating 10,000
   * small files is most of the time of a first checkpoint; blobs over `core.bigFileThreshold` go to a
   * pack as they are added).
   */
  private async stage(
    git: GitRunOptions,
    excludes: readonly string[],
    recorded: readonly string[],
    skipped: readonly SkippedFile[],
    unopened: readonly string[],
  ): Promise<void> {
    const add = (config: readonly string[], specs: readonly string[]) =>
      runGit(
        [
          ...excludes,
          ...config,
          'add',
          '-A',
          '--ignore-errors',
          '--pathspec-from-file=-',
          '--pathspec-file-nul',
        ],
        {
          ...git,
          input: specs.join('\0'),
          // 1: some files vanished or could not be read while adding; the rest is recorded.
          okCodes: [1],
        },
      );
    const wholeOnce = () =>
      add(recorded.length >= PACK_FROM_FILES ? ['-c', 'core.bigFileThreshold=1'] : [], [
        '.',
        ...skipped.map((s) => `:(exclude,literal)${s.path}`),
        ...unopened.map((folder) => `:(exclude,literal)${folder}`),
      ]);
    const whole = () => againWhileFilesVanish(wholeOnce);
    if (recorded.length > NAMED_UP_TO) {
      await whole();
      return;
    }
    // A file named here that vanished since it was listed fails the whole command: then the root.
    await add(
      [],
      recorded.map((path) => `:(literal)${path}`),
    ).catch(whole);
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

function sameModes(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}
