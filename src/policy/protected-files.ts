import { lstatSync, statSync } from 'node:fs';
import { basename, dirname, resolve, sep } from 'node:path';
import type { EffectFacts } from './effect-facts.js';
import type { FileTarget } from './effects.js';
import type { GitConfigHolds } from './git-config-holds.js';
import type { HomeStartupFiles } from './home-startup-files.js';
import { RecentWrites } from './recent-writes.js';

/**
 * Files that configure the agent itself: the rules files (`.kimi-ts/permissions.toml` of any
 * workspace, the user's `permissions.toml`), the trust record, and every config file the session
 * loaded; and the person's startup files in their home. Rewriting one changes what the next session
 * (or the person's next shell) may do, so no approval of file edits covers
 * them (not "approve for session", not a prefix, not yolo, not an allow rule): only a separate
 * question that names the file, and where nobody can answer, a refusal.
 */
export class ProtectedFiles {
  private readonly paths: Map<string, string>;
  /** What was let through lately: another call of the same step may not have written it yet. */
  private readonly recent = new RecentWrites();

  /**
   * `files`: absolute paths (real paths preferred) with what each is, e.g. "the trust record".
   * `home`: the person's startup files (`~/.bashrc`, `~/bin/…`), protected as well.
   */
  constructor(
    files: readonly { path: string; what: string }[],
    private readonly home?: HomeStartupFiles,
    /** What git's config names in the work tree: a hooks folder, included files (git-config-holds.ts). */
    private readonly gitConfig?: Pick<GitConfigHolds, 'reason'>,
  ) {
    this.paths = new Map(files.map((file) => [resolve(file.path), file.what]));
  }

  static none(): ProtectedFiles {
    return new ProtectedFiles([]);
  }

  /**
   * What the target is, when it is protected: by the path as given and by where it really is, so a
   * symlink named `.kimi-ts/permissions.toml` that points elsewhere is protected too (the rules are
   * read through it).
   */
  reason(target: Pick<FileTarget, 'absolute' | 'real'>): string | null {
    for (const path of [target.real, target.absolute]) {
      const known = this.paths.get(path);
      if (known) return known;
      if (isProjectRulesFile(path)) return "a project's permission rules file";
    }
    if (this.home) {
      for (const path of [target.real, target.absolute]) {
        const startup = this.home.reason(path);
        if (startup) return startup;
      }
    }
    // Last, and only by name: the common case (no `.git` in the path) costs one scan of the string.
    for (const path of [target.real, target.absolute]) if (isGitMetadata(path)) return GIT_METADATA;
    if (makesGitFolder(target.real, this.recent)) return GIT_METADATA;
    if (this.gitConfig)
      for (const path of [target.real, target.absolute]) {
        const named = this.gitConfig.reason(path);
        if (named) return named;
      }
    this.recent.add(target.real);
    return null;
  }
}

/** How far above a written file a git folder it completes can be: `refs/heads/main`, `objects/ab/cd…`. */
const GIT_FOLDER_DEPTH = 3;

/**
 * Whether writing `path` leaves one of the folders just above it a git folder by git's own test
 * (setup.c, is_git_directory), whatever its name: `HEAD` with `objects/` and `refs/`, its own or
 * those of the folder its `commondir` file names. `fixture/HEAD` and `fixture/config` next to a
 * fixture's empty `objects/` and `refs/` make a repository whose `core.fsmonitor` or hooks run,
 * outside any sandbox, when someone runs git there; so do `fixture/HEAD`, `fixture/commondir`
 * (`../shared`) and `fixture/config.worktree` (`core.worktree = ..`) beside a `shared/` holding
 * `objects/`, `refs/` and a config. A `HEAD` beside a `commondir` counts whatever the latter names
 * (it may be given its `objects/` and `refs/` later, by writes too far below to be seen from here).
 * (A command's are cleaned after it: new-git-dirs.ts.) One lstat per folder above for most writes:
 * a folder with no `HEAD` is none.
 */
export function makesGitFolder(path: string, recent?: RecentWrites): boolean {
  // Whatever is beside it: `commondir` is git's name, a file by that name serves nothing else (and
  // the calls of a step run concurrently: its `HEAD` may be written at the same time).
  if (basename(path) === 'commondir') return true;
  let folder = path;
  for (let depth = 0; depth < GIT_FOLDER_DEPTH; depth++) {
    const above = dirname(folder);
    if (above === folder) return false;
    folder = above;
    if (!holds(folder, 'HEAD', path, recent, false)) continue;
    if (holds(folder, 'commondir', path, recent, false)) return true;
    if (holds(folder, 'objects', path, recent, true) && holds(folder, 'refs', path, recent, true))
      return true;
  }
  return false;
}

/**
 * Whether `folder/name` is there for git: being written now (`path` is it or lies under it), let
 * through a moment ago (`recent`), or on disk — a folder when `folder` is asked (git's test is
 * access(X_OK): a symlink to a folder counts, so does an executable file), anything otherwise.
 */
function holds(
  folder: string,
  name: string,
  path: string,
  recent: RecentWrites | undefined,
  asFolder: boolean,
) {
  const entry = `${folder}${sep}${name}`;
  if (path === entry || (path.startsWith(entry) && path[entry.length] === sep) || recent?.has(entry))
    return true;
  if (asFolder) {
    // access(X_OK) through links: a folder, or a file with an execute bit.
    const stat = statSync(entry, { throwIfNoEntry: false });
    return stat !== undefined && (stat.isDirectory() || (stat.mode & 0o111) !== 0);
  }
  return lstatSync(entry, { throwIfNoEntry: false }) !== undefined;
}

const GIT_METADATA = "a git repository's metadata (its hooks and config run code when git runs)";

/**
 * Anything under a `.git` of any repository, the top one or a nested one (`sub/.git/config`, a
 * submodule's gitfile `mod/.git`, a linked worktree's, one reached through a symlinked `.git`): what
 * is written there runs later, outside any sandbox, when someone runs git in that repository.
 */
export function isGitMetadata(path: string): boolean {
  return path.includes(`${sep}.git`) && path.split(sep).includes('.git');
}

/** `<any folder>/.kimi-ts/permissions.toml`: a workspace's rules, read by the next session there. */
export function isProjectRulesFile(path: string): boolean {
  return basename(path) === 'permissions.toml' && basename(dirname(path)) === '.kimi-ts';
}

/** A write of a call to a protected file, with what that file is. */
export interface ProtectedWrite {
  readonly target: FileTarget;
  readonly what: string;
}

/** The first write of the call to a protected file, or null. */
export function firstProtectedWrite(
  facts: readonly EffectFacts[],
  files: ProtectedFiles,
): ProtectedWrite | null {
  for (const { effect } of facts) {
    if (effect.kind !== 'write') continue;
    const what = files.reason(effect.target);
    if (what) return { target: effect.target, what };
  }
  return null;
}

/** Why a protected write is refused where no person can answer. */
export function protectedRefusal(write: ProtectedWrite): string {
  return `\`${write.target.given}\` is ${write.what} (real path ${write.target.real}): it configures the agent, so only a person may approve an edit of it, one edit at a time, and no person can approve it here (print mode, afk, or a background agent), so it is refused. Do not try to get around it.`;
}
