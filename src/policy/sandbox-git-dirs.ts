import { existsSync, lstatSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { isWithinDirectory } from '../util/path-within.js';
import { moduleGitDirs } from './module-git-dirs.js';
import type { NestedGitIndex } from './nested-git-index.js';
import { describeGuarded, type GitDirCandidate, type GitDirGuard, topGitDir } from './new-git-dirs.js';
import { type AgentCode, agentCodeHolds, NO_AGENT_CODE } from './sandbox-agent-code.js';

/** One writable root's git paths, as the sandbox sees them before and after a command. */
export interface RootGitPaths {
  readonly dir: string;
  /** The nested `.git` paths the next command binds read-only (the index's last reading). */
  readonly nested: readonly string[];
  /**
   * The git folders a command could write there: at its top, among the nested ones, and (not bound)
   * bare repositories, those under node_modules and the like (src/policy/nested-git.ts), and the
   * submodules' git folders inside all these (src/policy/module-git-dirs.ts).
   */
  readonly gitDirs: readonly GitDirCandidate[];
}

/** Each writable root's git paths; `indexOf` gives the root's (shared) NestedGitIndex. */
export function gitPathsOf(
  roots: readonly string[],
  indexOf: (dir: string, roots: readonly string[]) => NestedGitIndex,
): Promise<RootGitPaths[]> {
  return Promise.all(
    roots.map(async (dir) => {
      if (!existsSync(dir)) return { dir, nested: [], gitDirs: [] };
      const index = indexOf(dir, roots);
      const nested = await index.paths();
      const top = topGitDir(dir, roots);
      const gitDirs: GitDirCandidate[] = [...(top === null ? [] : [top]), ...nested.filter(isFolder)].map(
        (gitDir) => ({ gitDir, bound: true }),
      );
      for (const gitDir of await index.bareRepositories()) gitDirs.push({ gitDir, bound: false });
      for (const gitDir of (await index.unboundGitDirs()).filter(isFolder))
        gitDirs.push({ gitDir, bound: false });
      // Submodules' git folders kept inside those (bound with the folder that holds them, if it is).
      for (const { gitDir } of [...gitDirs])
        for (const module of moduleGitDirs(gitDir)) gitDirs.push({ gitDir: module, bound: false });
      return { dir, nested, gitDirs };
    }),
  );
}

/**
 * After a command: cleans the git folders of `roots` a command could have written
 * (src/policy/new-git-dirs.ts); the tool result's note on what was moved, or null. `idle`: no
 * command runs now.
 */
export async function cleanGitDirs(
  roots: readonly string[],
  indexOf: (dir: string, roots: readonly string[]) => NestedGitIndex,
  guard: GitDirGuard,
  idle: boolean,
  context: { readonly workDir: string; readonly path: string | undefined },
): Promise<string | null> {
  const all = (await gitPathsOf(roots, indexOf)).flatMap((root) => root.gitDirs);
  const known = new Set(all.map((candidate) => candidate.gitDir));
  // A `commondir` may lead to a git folder checked here, or to one outside the writable roots (read-only).
  const isGuarded = (real: string) =>
    real !== '' && (known.has(real) || !roots.some((dir) => isWithinDirectory(real, dir)));
  const guarded = await guard.check(all, idle, isGuarded, context.path);
  return guarded.length > 0 ? describeGuarded(guarded, context.workDir) : null;
}

function isFolder(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
}

/**
 * The nested repositories' git metadata that existed when the commands before this one ended (read
 * then by a NestedGitIndex, off the command's path), bound read-only like
 * the top-level `.git` (src/policy/nested-git.ts finds it: `sub/.git`, a submodule's or worktree's
 * gitfile and the folder it names, the folder a symlinked `.git` points to).
 *
 * What a command can still do: make a NEW git folder (`git init`, at the top where there was none or
 * in `sub2`, a clone, moving `sub` aside and making another `sub/.git`, the folder a dangling `.git`
 * link or gitfile names) and put hooks or `core.fsmonitor` in it. When the command ends, such a
 * folder is cleaned of them (src/policy/new-git-dirs.ts: moved into a quarantine inside it, the tool
 * result says so) before the result goes back; one a background command makes, when it exits or
 * when any other command ends, whichever comes first. The next command binds it read-only like any other.
 */
export function nestedGitBinds(paths: readonly string[] | undefined): string[] {
  return (paths ?? []).flatMap((path) => ['--ro-bind', path, path]);
}

/** The work trees of the repositories a reading of nested `.git` paths found (`sub/.git` → `sub`). */
export function nestedWorkTrees(nestedGit: ReadonlyMap<string, readonly string[]>): string[] {
  return [...nestedGit.values()]
    .flat()
    .filter((path) => basename(path) === '.git')
    .map((path) => dirname(path));
}

/**
 * What the sandbox holds of the agent's code (sandbox-agent-code.ts) with what git's configs name,
 * the nested repositories' too (their configs name hooks in them: `sub/.husky`, git-config-holds.ts).
 * What such a config names and does not exist yet (`sub/tools/hooks` before husky made it) was made
 * empty before, at the command's launch (makeAgentPlaceholders, sandbox-placeholders.ts).
 */
export function heldAgentCode(
  agentCode: AgentCode | undefined,
  realRoots: readonly string[],
  nestedGit: ReadonlyMap<string, readonly string[]>,
): string[] {
  return agentCodeHolds(agentCode ?? NO_AGENT_CODE, realRoots, nestedWorkTrees(nestedGit));
}
