import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { repoGit } from '../app/subagents/repo-git.js';
import { trapExcludes } from '../util/git-walk-traps.js';
import { isLocalRemote, type RepoSource, sessionBranch } from './repo-source.js';

/**
 * A session's work dir on a worker when its job names a git remote: a bare cache of the remote under
 * the worker's home, and a worktree of the session's own on the branch `kimi-ts/<session>`. The turn
 * runs there; its work is committed and pushed back to that branch, where the next turn (on any
 * worker) starts from. Git runs as in an untrusted repository (repoGit: no system or global config,
 * hooks, fsmonitor, filter or merge drivers off), and for the far side of a push or fetch (which for
 * a remote on this file system runs here, reading the remote's config) with its hooks off too.
 */

/**
 * The far side of a fetch or push (it runs here for a local remote, reading the remote's config):
 * with the remote's hooks off, and the settings of that config that run a program off too: an
 * alternate-refs command (run for each alternate the remote lists), an fsmonitor (read when a push
 * updates a checked-out branch's work tree: `receive.denyCurrentBranch=updateInstead`, so that is
 * refused as git does by default), and no automatic gc of someone else's repository.
 */
const FAR_SIDE =
  'git -c core.hooksPath=/dev/null -c core.alternateRefsCommand=true -c core.fsmonitor=false -c receive.denyCurrentBranch=refuse -c receive.autogc=false';
const UPLOAD_PACK = `${FAR_SIDE} upload-pack`;
const RECEIVE_PACK = `${FAR_SIDE} receive-pack`;

/** Only the transports a fleet needs; the file system one only when the remote is a path. */
function transportSettings(url: string): string[] {
  const allowed = ['https', 'http', 'ssh', 'git', ...(isLocalRemote(url) ? ['file'] : [])];
  return [
    '-c',
    'protocol.allow=never',
    ...allowed.flatMap((name) => ['-c', `protocol.${name}.allow=always`]),
    '-c',
    'submodule.recurse=false',
  ];
}

/** Under the home's `worktrees` (checkouts, which the policy does not count among the home's secrets). */
export function sessionWorktreePath(home: string, sessionId: string): string {
  return join(home, 'worktrees', 'fleet', sessionId);
}

function cachePath(home: string, url: string): string {
  return join(home, 'fleet', 'repos', `${createHash('sha256').update(url).digest('hex').slice(0, 32)}.git`);
}

/**
 * Fetches the remote into the worker's cache and makes the session's worktree: at the session's
 * branch when the remote has it (an earlier turn's work, from any worker), else at the base
 * revision. Returns the worktree's path.
 */
export function checkoutSessionWorktree(
  home: string,
  sessionId: string,
  repo: RepoSource,
  signal?: AbortSignal,
): Promise<string> {
  return oneAtATime(cachePath(home, repo.url), () => checkout(home, sessionId, repo, signal));
}

/** Git changes of one cache, one after the other: two turns fetching at once would fight over its ref locks. */
const cacheQueues = new Map<string, Promise<unknown>>();

function oneAtATime<T>(cache: string, change: () => Promise<T>): Promise<T> {
  const run = (cacheQueues.get(cache) ?? Promise.resolve()).catch(() => undefined).then(change);
  const settled = run.catch(() => undefined);
  cacheQueues.set(cache, settled);
  void settled.then(() => {
    if (cacheQueues.get(cache) === settled) cacheQueues.delete(cache);
  });
  return run;
}

async function checkout(
  home: string,
  sessionId: string,
  repo: RepoSource,
  signal?: AbortSignal,
): Promise<string> {
  const cache = cachePath(home, repo.url);
  const worktree = sessionWorktreePath(home, sessionId);
  await mkdir(join(home, 'fleet', 'repos'), { recursive: true });
  await mkdir(join(home, 'worktrees', 'fleet'), { recursive: true });
  if (!existsSync(cache))
    await repoGit(['init', '--bare', '-q', cache], join(home, 'fleet', 'repos'), { signal });
  const transport = transportSettings(repo.url);
  await repoGit(
    [
      ...transport,
      'fetch',
      '-q',
      '--no-tags',
      '--no-recurse-submodules',
      '--upload-pack',
      UPLOAD_PACK,
      '--',
      repo.url,
      '+refs/heads/*:refs/remotes/origin/*',
      '+refs/tags/*:refs/tags/*',
    ],
    cache,
    { signal },
  );
  const branch = sessionBranch(sessionId);
  const start =
    (await resolveCommit(cache, `refs/remotes/origin/${branch}`, signal)) ??
    (await resolveCommit(cache, `refs/remotes/origin/${repo.rev}`, signal)) ??
    (await resolveCommit(cache, `refs/tags/${repo.rev}`, signal)) ??
    (/^[0-9a-f]{7,64}$/.test(repo.rev) ? await resolveCommit(cache, repo.rev, signal) : null);
  if (start === null)
    throw new Error(
      `The revision ${repo.rev} is not a branch, a tag or a commit on a branch of the session's remote.`,
    );
  // A worktree left by an earlier turn on this worker is made again from the remote's state.
  if (existsSync(worktree)) {
    await repoGit(['worktree', 'remove', '--force', worktree], cache, { signal, okCodes: [128] });
    await rm(worktree, { recursive: true, force: true });
  }
  await repoGit(['worktree', 'prune'], cache, { signal });
  await repoGit(['worktree', 'add', '-q', '--force', '-B', branch, worktree, start], cache, { signal });
  return worktree;
}

/**
 * Commits what the turn changed in the session's worktree and pushes it to the session's branch on
 * the remote. `check` runs just before the push (the worker's lease: one that lost it pushes nothing).
 * Returns the commit the branch is at.
 */
export function pushSessionWork(
  home: string,
  sessionId: string,
  turn: number,
  repo: RepoSource,
  check: () => Promise<void>,
  signal?: AbortSignal,
): Promise<string> {
  return oneAtATime(cachePath(home, repo.url), () =>
    commitAndPush(home, sessionId, turn, repo, check, signal),
  );
}

async function commitAndPush(
  home: string,
  sessionId: string,
  turn: number,
  repo: RepoSource,
  check: () => Promise<void>,
  signal?: AbortSignal,
): Promise<string> {
  const cache = cachePath(home, repo.url);
  const worktree = sessionWorktreePath(home, sessionId);
  const branch = sessionBranch(sessionId);
  // The worktree's `.git` file is the turn's to rewrite (it is in the work dir): git is pointed at
  // the worktree's own admin folder in the cache instead, so a pointer to a folder with a hostile
  // config (a credential helper, an ssh command) is never read; the push runs from the cache.
  const admin = join(cache, 'worktrees', sessionId);
  if (!existsSync(join(admin, 'commondir')))
    throw new Error(`The session's worktree is gone from the cache of its remote: nothing to push.`);
  const inWorktree = ['--git-dir', admin, '--work-tree', worktree];
  // A nested .git the turn made could make git wait or read without end (git-probe-traps.ts).
  await repoGit(
    [...inWorktree, 'add', '-A', '--', ':(top)', ...(await trapExcludes(worktree, signal))],
    cache,
    {
      signal,
    },
  );
  const staged = await repoGit([...inWorktree, 'diff', '--cached', '--quiet'], cache, {
    signal,
    okCodes: [1],
  });
  if (staged.code === 1)
    await repoGit(
      [...inWorktree, 'commit', '-q', '--no-verify', '-m', `kimi-ts: turn ${turn} of session ${sessionId}`],
      cache,
      { signal },
    );
  await check();
  await pushBranch(cache, repo, branch, signal);
  return (await repoGit(['rev-parse', `refs/heads/${branch}`], cache, { signal })).stdout.trim();
}

/**
 * Pushes the branch of one swarm item (`kimi-ts/<swarm>/<n>`, committed in a worktree of this cache)
 * back to the session's remote, where its work comes back as that branch.
 */
export function pushItemBranch(
  home: string,
  repo: RepoSource,
  branch: string,
  signal?: AbortSignal,
): Promise<void> {
  if (!/^kimi-ts\/[a-z0-9]{1,32}\/\d{1,4}$/.test(branch))
    return Promise.reject(new Error(`Not a swarm item's branch: ${JSON.stringify(branch)}`));
  const cache = cachePath(home, repo.url);
  return oneAtATime(cache, () => pushBranch(cache, repo, branch, signal));
}

/**
 * Pushes `branch` of the cache to the same branch of the remote: no hook of ours runs (`--no-verify`),
 * the far side's receive-pack is the hardened one, the transport settings are the cache's own.
 */
async function pushBranch(
  cache: string,
  repo: RepoSource,
  branch: string,
  signal?: AbortSignal,
): Promise<void> {
  await repoGit(
    [
      ...transportSettings(repo.url),
      'push',
      '-q',
      '--no-verify',
      '--receive-pack',
      RECEIVE_PACK,
      '--',
      repo.url,
      `refs/heads/${branch}:refs/heads/${branch}`,
    ],
    cache,
    { signal },
  );
}

async function resolveCommit(cache: string, rev: string, signal?: AbortSignal): Promise<string | null> {
  const found = await repoGit(['rev-parse', '--verify', '--quiet', `${rev}^{commit}`], cache, {
    signal,
    okCodes: [1, 128],
  });
  return found.code === 0 ? found.stdout.trim() : null;
}
