import { lstatSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isWithinDirectory } from '../util/path-within.js';
import { type NeutralisedGitDir, neutraliseGitDir } from './git-dir-neutralise.js';
import { gitfileTarget, realTarget } from './nested-git.js';

/**
 * The git folder `root/.git` leads to, when a command could write there: the folder itself, where a
 * symlinked `.git` leads or the `gitdir:` of a gitfile, inside one of the writable roots. null when
 * there is none (yet): a dangling link or gitfile is looked at again after every command.
 */
export function topGitDir(root: string, writableRoots: readonly string[]): string | null {
  const path = join(root, '.git');
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (stat === undefined) return null;
  const target = stat.isDirectory() ? path : stat.isSymbolicLink() ? realTarget(path) : gitfileTarget(path);
  return target !== null && writableRoots.some((dir) => isWithinDirectory(target, dir)) ? target : null;
}

/** What changes in a git folder when someone adds a hook or changes its config. */
function signatureOf(gitDir: string): string | null {
  const dir = lstatSync(gitDir, { throwIfNoEntry: false });
  if (!dir?.isDirectory()) return null;
  const part = (name: string) => {
    const s = lstatSync(join(gitDir, name), { throwIfNoEntry: false });
    return s ? `${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}` : '-';
  };
  // A hook rewritten in place does not move its folder's times (a person's bare repository keeps its hooks).
  const hooks = hookNames(join(gitDir, 'hooks')).map((name) => `${name}=${part(join('hooks', name))}`);
  return [dir.ino, part('config'), part('hooks'), part('config.worktree'), part('commondir'), ...hooks].join(
    ' ',
  );
}

function hookNames(hooks: string): string[] {
  try {
    return readdirSync(hooks).filter((name) => !name.endsWith('.sample'));
  } catch {
    return [];
  }
}

/** One git folder a command made or changed, and what was taken out of it. */
export interface GuardedGitDir extends NeutralisedGitDir {
  readonly gitDir: string;
}

/** A git folder to look at after a command, and whether later commands bind it read-only. */
export interface GitDirCandidate {
  readonly gitDir: string;
  /** Bound read-only from the next command on (a `.git`, what a gitfile or link names); a bare repository elsewhere is not. */
  readonly bound: boolean;
}

/**
 * Git folders in the writable workspace that a sandboxed command could have written — made by it
 * (`git init`, a clone, the target of a dangling `.git` link or gitfile, a bare repository) before the
 * sandbox bound them read-only for the commands after — checked after each command and cleaned of
 * what would run a program when the person later runs git there (src/policy/git-dir-neutralise.ts).
 *
 * The git folders that exist when a workspace is first seen (before its first command) are the
 * person's, as they are then. Each other one, and a bare repository whose config or hooks changed since
 * (those stay writable), is checked after each command while its config, hooks, `config.worktree` or
 * `commondir` change (a few stats; nothing read when unchanged). A bound one checked while no command
 * was running is sealed: every later command binds it read-only, and the person's own later edits are theirs.
 */
export class GitDirGuard {
  private readonly seenRoots = new Set<string>();
  /** `path inode` of the git folders no command can write any more. */
  private readonly sealed = new Set<string>();
  /** A folder's signature as the person left it or as a check left it. */
  private readonly accepted = new Map<string, string>();

  /** The first sight of `root` (before a command ran in it): its git folders are the person's. */
  adoptOnce(root: string, candidates: readonly GitDirCandidate[]): void {
    if (this.seenRoots.has(root)) return;
    this.seenRoots.add(root);
    for (const { gitDir, bound } of candidates) {
      const signature = signatureOf(gitDir);
      if (signature === null) continue;
      this.accepted.set(gitDir, signature);
      if (bound) this.sealed.add(sealKey(gitDir, signature));
    }
  }

  /**
   * Checks the candidates after a command ended; `idle`: no command runs now. `isGuarded` says
   * whether a folder a `commondir` names is checked or bound read-only itself.
   */
  async check(
    candidates: readonly GitDirCandidate[],
    idle: boolean,
    isGuarded: (realGitDir: string) => boolean,
    path: string | undefined,
  ): Promise<GuardedGitDir[]> {
    const changed: GuardedGitDir[] = [];
    const bound = new Set(candidates.filter((c) => c.bound).map((c) => c.gitDir));
    for (const gitDir of new Set(candidates.map((c) => c.gitDir))) {
      // A sealed folder costs one lstat.
      const ino = lstatSync(gitDir, { throwIfNoEntry: false })?.ino;
      if (ino === undefined || this.sealed.has(`${gitDir} ${ino}`)) continue;
      const signature = signatureOf(gitDir);
      if (signature === null) continue;
      let after = signature;
      if (this.accepted.get(gitDir) !== signature) {
        try {
          const result = await neutraliseGitDir(gitDir, isGuarded, path);
          if (result.quarantine !== null) changed.push({ gitDir, ...result });
        } catch {
          // Gone or moved meanwhile, or not writable to us either: looked at again after the next command.
          continue;
        }
        after = signatureOf(gitDir) ?? '';
        this.accepted.set(gitDir, after);
      }
      if (idle && bound.has(gitDir)) this.sealed.add(sealKey(gitDir, after));
    }
    return changed;
  }
}

/** A sealed folder is known by its path and inode (a folder made in its place is not sealed). */
function sealKey(gitDir: string, signature: string): string {
  return `${gitDir} ${signature.split(' ')[0]}`;
}

/** The tool result's note on what was taken out of git folders a command made, paths relative to `root`. */
export function describeGuarded(guarded: readonly GuardedGitDir[], root: string): string {
  const rel = (path: string) => {
    const name = relative(root, path) || '.';
    return /^[\w./@+-]+$/.test(name) ? name : JSON.stringify(name);
  };
  const lines = guarded.map((g) => {
    const what = [
      ...(g.settings.length > 0 ? [`config settings that run programs (${g.settings.join(', ')})`] : []),
      ...g.moved.map((name) => (/^[\w./-]+$/.test(name) ? name : JSON.stringify(name))),
    ].join('; ');
    return `- ${rel(g.gitDir)}: moved to ${rel(g.quarantine ?? g.gitDir)}: ${what}`;
  });
  return [
    'The sandbox took out of the git metadata this command made what would run a program when git is used there later, outside the sandbox (hooks, config such as core.fsmonitor or aliases); the repository itself (objects, refs, index, plain settings) is unchanged:',
    ...lines,
    'If they are wanted, the person can review and restore them outside the sandbox.',
  ].join('\n');
}
