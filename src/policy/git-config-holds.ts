import { lstatSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { isWithinDirectory } from '../util/path-within.js';
import { realOrGiven } from '../util/real-or-given.js';
import { readGitConfigNames } from './git-config-names.js';
import { gitfileTarget } from './nested-git.js';

/**
 * Files and folders of the person's work tree that git reads as config or runs, because a config
 * names them (src/policy/git-config-names.ts): a `core.hooksPath` folder (`.husky/`, set by husky on
 * `npm install`), a file `include.path` or `includeIf.*.path` names (`../.gitconfig`). What is
 * written there runs later, outside any sandbox, when the person uses git: they are held as
 * `.git/hooks` and `.git/config` are (read-only in the sandbox, a protected write for the file tools).
 */
export interface GitConfigHeld {
  /** Config files named (existing or not), absolute. */
  readonly files: readonly string[];
  /** Hook folders named (existing or not), absolute. */
  readonly folders: readonly string[];
}

/** Where git looks for config besides the repository's: the environment it runs with. */
export interface GitConfigPlaces {
  readonly home: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/**
 * The config files git reads for a repository found from `roots` (each root's own or the one above
 * it): system, global, and the repository's (`config` of its common folder, `config.worktree`), read
 * at the first call and again when one of the files read (includes too) changed: a few lstats.
 */
export class GitConfigHolds {
  private signature = '';
  private held: GitConfigHeld = { files: [], folders: [] };
  private read: readonly string[] = [];
  private computed = false;
  /**
   * The work trees of repositories nested in a writable root whose configs are read too (a
   * subproject with husky names its own hooks folder): told by the sandbox's nested-git walk, or
   * found above a path a write names. Kept for the session; one whose `.git` is gone reads nothing.
   */
  private readonly nestedTrees = new Set<string>();

  constructor(
    private readonly roots: () => readonly string[],
    private readonly places: GitConfigPlaces,
  ) {}

  /** The list of nested work trees the last reading was asked with, while its synchronous stretch lasts. */
  private askedWith: readonly string[] | null = null;

  /**
   * What the configs name now; `nestedWorkTrees`: nested repositories the caller found (kept).
   *
   * Asked again with the very same list in the same synchronous stretch, it is the same reading: a
   * command's launch asks twice (the placeholders it makes, then what it holds), each time ~10 lstats,
   * a real path and a walk up for `.git`. Nothing between the two asks but the placeholders made for
   * what the reading named, which name nothing (an empty config, an empty hooks folder); a change by
   * another process lands before or after the stretch alike, before the command starts either way.
   */
  current(found?: { readonly nestedWorkTrees: readonly string[] }): GitConfigHeld {
    if (found !== undefined && found.nestedWorkTrees === this.askedWith) return this.held;
    this.askedWith = null;
    if (found) for (const tree of found.nestedWorkTrees) this.noteNested(tree);
    const held = this.reading();
    if (found !== undefined) {
      const asked = found.nestedWorkTrees;
      this.askedWith = asked;
      queueMicrotask(() => {
        if (this.askedWith === asked) this.askedWith = null;
      });
    }
    return held;
  }

  private reading(): GitConfigHeld {
    const firsts = this.firstFiles();
    const signature = [...firsts.map((f) => f.file), '|', ...this.read].map(stamp).join(' ');
    // Also when no config file exists at all (nothing read: a signature of missing files, still one).
    if (this.computed && signature === this.signature) return this.held;
    const files: string[] = [];
    const folders: string[] = [];
    const allRead: string[] = [];
    for (const { file, workTree } of firsts) {
      const names = readGitConfigNames([file], this.places.home);
      allRead.push(...names.files);
      // The first file itself is `.git/config` or the home's: held already, where it needs to be.
      files.push(...names.files.slice(1));
      // A relative hooks path is relative to where hooks run: the work tree's top (none: ignored).
      for (const value of names.hooksPaths) {
        if (value.startsWith('~/')) folders.push(resolve(this.places.home, value.slice(2)));
        else if (value.startsWith('/')) folders.push(resolve(value));
        else for (const top of workTree) folders.push(resolve(top, value));
      }
    }
    this.read = [...new Set(allRead)];
    // husky 9 sets `core.hooksPath = .husky/_`: the hooks there run the scripts of the folder above
    // (`.husky/pre-commit`), so that folder is held too.
    for (const folder of [...folders]) if (basename(folder) === '_') folders.push(dirname(folder));
    // Each as named and where it really is (a `.husky` that is a symlink: its target is what git reads).
    const withReal = (paths: readonly string[]) => [...new Set(paths.flatMap((p) => [p, realOrGiven(p)]))];
    this.held = { files: withReal(files), folders: withReal(folders) };
    this.signature = [...firsts.map((f) => f.file), '|', ...this.read].map(stamp).join(' ');
    this.computed = true;
    return this.held;
  }

  /** Why a write to `path` is git metadata, or null: it is a held file, or in a held folder. */
  reason(path: string): string | null {
    this.noteRepositoryAbove(path);
    const { files, folders } = this.current();
    if (files.includes(path)) return GIT_CONFIG_FILE;
    const roots = this.roots();
    for (const folder of folders) {
      if (!isWithinDirectory(path, folder)) continue;
      // A hooks folder holding the whole workspace (`core.hooksPath = .`): its hooks by name only.
      const wide = roots.some((root) => isWithinDirectory(root, folder));
      if (!wide || (dirname(path) === folder && GIT_HOOK_NAMES.has(basename(path)))) return GIT_HOOKS_FOLDER;
    }
    return null;
  }

  /** A work tree strictly inside a writable root: its repository's config is read from now on. */
  private noteNested(tree: string): void {
    const top = resolve(tree);
    if (this.nestedTrees.has(top)) return;
    if (this.roots().some((root) => top !== root && isWithinDirectory(top, root))) this.nestedTrees.add(top);
  }

  /**
   * The nearest repository above `path` inside a writable root, when it is a nested one: a few
   * lstats, up to the root (a write names its hooks folder before any walk told of it).
   */
  private noteRepositoryAbove(path: string): void {
    const root = this.roots().find((dir) => path !== dir && isWithinDirectory(path, dir));
    if (root === undefined) return;
    for (let dir = dirname(path); dir !== root && isWithinDirectory(dir, root); dir = dirname(dir)) {
      if (lstatSync(join(dir, '.git'), { throwIfNoEntry: false }) === undefined) continue;
      this.noteNested(dir);
      return;
    }
  }

  /** The config files git starts from, each with the work trees whose hooks path it sets. */
  private firstFiles(): { file: string; workTree: string[] }[] {
    const { env, home } = this.places;
    const tops = new Map<string, string[]>();
    const add = (file: string, top: string | null) => {
      const list = tops.get(file) ?? [];
      if (top !== null && !list.includes(top)) list.push(top);
      tops.set(file, list);
    };
    const repos = this.roots()
      .map(enclosingRepository)
      .filter((repo) => repo !== null);
    const workTrees = repos.map((repo) => repo.workTree);
    const everyTree = (file: string) => {
      add(file, null);
      for (const top of workTrees) add(file, top);
    };
    if (!env.GIT_CONFIG_NOSYSTEM) everyTree(env.GIT_CONFIG_SYSTEM || '/etc/gitconfig');
    if (env.GIT_CONFIG_GLOBAL) everyTree(env.GIT_CONFIG_GLOBAL);
    else {
      everyTree(join(env.XDG_CONFIG_HOME || join(home, '.config'), 'git', 'config'));
      everyTree(join(home, '.gitconfig'));
    }
    for (const tree of this.nestedTrees) {
      const repo = repositoryAt(tree);
      if (repo !== null) repos.push(repo);
    }
    for (const repo of repos) {
      add(join(repo.commonDir, 'config'), repo.workTree);
      add(join(repo.gitDir, 'config.worktree'), repo.workTree);
    }
    return [...tops].map(([file, workTree]) => ({ file: resolve(file), workTree }));
  }
}

/** The hooks git runs (githooks(5)), by the name of their file in the hooks folder. */
const GIT_HOOK_NAMES: ReadonlySet<string> = new Set([
  'applypatch-msg',
  'pre-applypatch',
  'post-applypatch',
  'pre-commit',
  'pre-merge-commit',
  'prepare-commit-msg',
  'commit-msg',
  'post-commit',
  'pre-rebase',
  'post-checkout',
  'post-merge',
  'pre-push',
  'pre-receive',
  'update',
  'proc-receive',
  'post-receive',
  'post-update',
  'reference-transaction',
  'push-to-checkout',
  'pre-auto-gc',
  'post-rewrite',
  'sendemail-validate',
  'fsmonitor-watchman',
  'p4-changelist',
  'p4-prepare-changelist',
  'p4-post-changelist',
  'p4-pre-submit',
  'post-index-change',
]);

const GIT_CONFIG_FILE =
  'a file the git config includes as config (its settings, such as core.fsmonitor, run programs when git runs)';
const GIT_HOOKS_FOLDER = "in the folder git's core.hooksPath names (its hooks run when git runs)";

interface Repository {
  readonly workTree: string;
  readonly gitDir: string;
  readonly commonDir: string;
}

/** A repository git would find from `dir`: the `.git` in it or the nearest folder above. */
export function enclosingRepository(dir: string): Repository | null {
  for (let top = resolve(dir); ; top = dirname(top)) {
    const repo = repositoryAt(top);
    if (repo !== null) return repo;
    if (top === dirname(top)) return null;
  }
}

/** The repository whose work tree's top is `top` (its `.git` a folder or a gitfile), or null. */
function repositoryAt(top: string): Repository | null {
  const dotGit = join(top, '.git');
  const stat = lstatSync(dotGit, { throwIfNoEntry: false });
  if (stat === undefined) return null;
  const gitDir = stat.isFile() ? gitfileTarget(dotGit) : dotGit;
  return gitDir === null ? null : { workTree: top, gitDir, commonDir: commonDirOf(gitDir) };
}

/** The folder a git folder's `commondir` names (relative to it), or the folder itself. */
export function commonDirOf(gitDir: string): string {
  const file = join(gitDir, 'commondir');
  // Most git folders have none: no read that fails (a thrown error each command).
  if (lstatSync(file, { throwIfNoEntry: false }) === undefined) return gitDir;
  try {
    const text = readFileSync(file, 'utf8').slice(0, 4096).trim();
    return text === '' ? gitDir : resolve(gitDir, text);
  } catch {
    return gitDir;
  }
}

function stamp(path: string): string {
  if (path === '|') return path;
  const stat = lstatSync(path, { throwIfNoEntry: false });
  return stat === undefined ? '-' : `${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`;
}

/** Those of `held` inside a writable root (real paths): what the sandbox binds read-only. */
export function heldInRoots(held: GitConfigHeld, realRoots: readonly string[]): GitConfigHeld {
  const inRoot = (path: string) => realRoots.some((root) => path !== root && isWithinDirectory(path, root));
  return { files: held.files.filter(inRoot), folders: held.folders.filter(inRoot) };
}

/**
 * What the sandbox makes at its start so that a command cannot create what a config names and does
 * not exist yet (then holds read-only): the named file itself, empty, where its folder exists (git
 * reads an empty config as a missing one); else the first missing folder on its way, empty (as a
 * missing hooks folder is: no hooks run from an empty one). Paths in a writable root (real paths).
 */
export function heldPlaceholders(
  held: GitConfigHeld,
  realRoots: readonly string[],
): { folders: string[]; files: string[] } {
  const inRoots = heldInRoots(held, realRoots);
  const folders = new Set<string>();
  const files = new Set<string>();
  const missing = (path: string) => lstatSync(path, { throwIfNoEntry: false }) === undefined;
  const place = (path: string, isFile: boolean) => {
    if (!missing(path)) return;
    let above = dirname(path);
    while (missing(above) && above !== dirname(above)) above = dirname(above);
    if (!realRoots.some((root) => isWithinDirectory(above, root))) return;
    const first = join(above, relative(above, path).split(sep)[0] ?? '');
    if (first === path && isFile) files.add(path);
    else folders.add(first);
  };
  for (const file of inRoots.files) place(file, true);
  for (const folder of inRoots.folders) place(folder, false);
  return { folders: [...folders], files: [...files] };
}
