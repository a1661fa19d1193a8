import { lstat, mkdir, readFile, realpath, rm } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { trapExcludes } from '../../util/git-walk-traps.js';
import { RepoGitError, repoGit } from './repo-git.js';

/** Isolation was asked for where it cannot be had (not a git repository, no commit yet). */
export class WorktreeUnavailableError extends Error {
  override name = 'WorktreeUnavailableError';
}

/** The run changed what ties its worktree to the repository: its work is not committed. */
export class WorktreeTamperedError extends Error {
  override name = 'WorktreeTamperedError';
}

/** An isolated subagent's own checkout of the person's repository. */
export interface AgentWorktree {
  /** The repository's top level (the person's work tree). */
  readonly repoRoot: string;
  /** The worktree's top level, under the agent's home. */
  readonly path: string;
  /** Where the subagent works: the worktree's counterpart of the session's work dir. */
  readonly workDir: string;
  readonly branch: string;
  /** The commit the branch started from. */
  readonly base: string;
  /** The worktree's `.git` file as git wrote it: it ties the checkout to the person's repository. */
  readonly gitFile: string;
}

/** What an isolated run left: its branch (when it changed anything) and the diff stat. */
export interface WorktreeOutcome {
  branch: string | null;
  diffStat: string;
}

/** Only ids kimi-ts made go into a branch or a path: never text from the model. */
const SAFE_ID = /^[a-z0-9]{1,32}$/;

/** `kimi-ts/<swarm or agent id>/<item index>`. */
export function worktreeBranch(ownerId: string, index: number): string {
  if (!SAFE_ID.test(ownerId) || !Number.isSafeInteger(index) || index < 0)
    throw new Error(`not a worktree owner id: ${JSON.stringify(ownerId)} #${index}`);
  return `kimi-ts/${ownerId}/${index}`;
}

/** Git operations on one repository, one at a time: its `.git/worktrees` and refs are shared. */
const repoQueues = new Map<string, Promise<unknown>>();

function serialised<T>(repoRoot: string, work: () => Promise<T>): Promise<T> {
  const previous = repoQueues.get(repoRoot) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(work);
  const tail = next.catch(() => undefined);
  repoQueues.set(repoRoot, tail);
  void tail.then(() => {
    if (repoQueues.get(repoRoot) === tail) repoQueues.delete(repoRoot);
  });
  return next;
}

/**
 * The repository holding `workDir` and its HEAD commit, where a worktree can start; a clear error
 * where it cannot (not a repository, no commit yet).
 */
export async function worktreeBase(
  workDir: string,
  signal: AbortSignal,
): Promise<{ repoRoot: string; base: string }> {
  let repoRoot: string;
  try {
    repoRoot = (await repoGit(['rev-parse', '--show-toplevel'], workDir, { signal })).stdout.trim();
  } catch (error) {
    if (error instanceof RepoGitError)
      throw new WorktreeUnavailableError(
        `isolation "worktree" needs a git repository, and ${workDir} is not in one. Use isolation "none".`,
      );
    throw error;
  }
  repoRoot = await realpath(repoRoot);
  try {
    const base = (
      await repoGit(['rev-parse', '--verify', 'HEAD^{commit}'], repoRoot, { signal })
    ).stdout.trim();
    return { repoRoot, base };
  } catch (error) {
    if (error instanceof RepoGitError)
      throw new WorktreeUnavailableError(
        `isolation "worktree" needs a commit to start from, and the repository at ${repoRoot} has none yet.`,
      );
    throw error;
  }
}

/**
 * Adds a worktree of the repository holding `workDir`, at its current HEAD, under `worktreesDir`
 * (the agent's home, never inside the person's work tree), on a new branch. The person's work tree,
 * index and stash are not touched: `worktree add` writes only the new checkout and `.git/worktrees`.
 */
export async function addAgentWorktree(options: {
  workDir: string;
  worktreesDir: string;
  ownerId: string;
  index: number;
  signal: AbortSignal;
}): Promise<AgentWorktree> {
  const { signal } = options;
  const branch = worktreeBranch(options.ownerId, options.index);
  const { repoRoot, base } = await worktreeBase(options.workDir, signal);
  const path = join(options.worktreesDir, `${options.ownerId}-${options.index}`);
  const inside = relative(repoRoot, await realpath(options.workDir));
  await mkdir(dirname(path), { recursive: true });
  await serialised(repoRoot, async () => {
    // What is already there is not ours to remove: an earlier run's branch (a resumed agent's, not
    // merged yet) or the person's. The failure path below deletes only what this call made.
    const taken = await repoGit(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], repoRoot, {
      signal,
      okCodes: [1],
    });
    if (taken.code === 0)
      throw new WorktreeUnavailableError(
        `the branch ${branch} already exists (an earlier isolated run's work?): merge it (/swarm merge ${branch}) or delete it, then run again.`,
      );
    if (await exists(path))
      throw new WorktreeUnavailableError(`${path} is already there; it is not a worktree this run made.`);
    try {
      // The checkout is a second git run inside the worktree: there the config's conditional
      // includes (`onbranch:kimi-ts/**`, `gitdir:**/worktrees/**`) are in force, and repoGit reads
      // the filter and driver names to neutralise where they are. `worktree add` would check out
      // in a child git that only the names read in the person's checkout reach.
      await repoGit(['worktree', 'add', '--no-checkout', '-b', branch, path, base], repoRoot, { signal });
      await repoGit(['reset', '--hard', '-q', '--no-recurse-submodules'], path, { signal });
    } catch (error) {
      // A cancel in the middle of the checkout: nothing of it may stay.
      await removeWorktree(repoRoot, path);
      await repoGit(['branch', '-D', branch], repoRoot).catch(() => undefined);
      throw error;
    }
  });
  const gitFile = await readFile(join(path, '.git'), 'utf8');
  return { repoRoot, path, workDir: inside ? join(path, inside) : path, branch, base, gitFile };
}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}

/** A single line of at most 72 printable characters, for a commit subject. */
function subjectLine(text: string): string {
  const line = text.replace(/[\p{Cc}\p{Cf}]+/gu, ' ').trim();
  return line.length > 72 ? `${line.slice(0, 71)}…` : line;
}

/**
 * Ends an isolated run: commits whatever changed in the worktree on its branch (a fixed author,
 * hooks and signing off), reads the diff stat against the base, then removes the worktree (forced:
 * a cancelled run may leave it dirty or locked) and prunes. A branch with no change is deleted.
 * Runs to its end even after a cancel: nothing may be left locked or present.
 */
export async function finishAgentWorktree(
  worktree: AgentWorktree,
  subject: string,
): Promise<WorktreeOutcome> {
  const { repoRoot, path, branch, base } = worktree;
  return serialised(repoRoot, async () => {
    let committed = false;
    let failure: { error: unknown } | null = null;
    try {
      // A `.git` rewritten by the run (possible with the sandbox off) would point git elsewhere.
      const gitFile = await readFile(join(path, '.git'), 'utf8').catch(() => null);
      if (gitFile !== worktree.gitFile)
        throw new WorktreeTamperedError(
          `the worktree's .git was changed by the run; nothing was committed from ${path}`,
        );
      // A nested .git the run made could make git wait or read without end (git-probe-traps.ts).
      await repoGit(['add', '-A', '--', '.', ...(await trapExcludes(path))], path);
      const staged = await repoGit(['diff', '--cached', '--quiet', '--no-ext-diff'], path, { okCodes: [1] });
      if (staged.code === 1) {
        await repoGit(['commit', '--no-verify', '--no-gpg-sign', '-q', '-m', subjectLine(subject)], path);
        committed = true;
      }
    } catch (error) {
      failure = { error };
    }
    await removeWorktree(repoRoot, path);
    if (!committed) await repoGit(['branch', '-D', branch], repoRoot).catch(() => undefined);
    if (failure) throw failure.error;
    if (!committed) return { branch: null, diffStat: '' };
    const stat = await repoGit(
      ['diff', '--stat', '--no-ext-diff', '--no-textconv', base, branch, '--'],
      repoRoot,
    );
    return { branch, diffStat: stat.stdout.trimEnd() };
  });
}

/** Removes a worktree whatever its state (dirty, locked, half made) and forgets it. */
async function removeWorktree(repoRoot: string, path: string): Promise<void> {
  await repoGit(['worktree', 'remove', '--force', '--force', path], repoRoot).catch(() => undefined);
  await rm(path, { recursive: true, force: true });
  await repoGit(['worktree', 'prune'], repoRoot).catch(() => undefined);
}
