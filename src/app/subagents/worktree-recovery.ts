import { readdir, readFile, realpath } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { finishAgentWorktree } from './agent-worktree.js';
import { repoGit } from './repo-git.js';

/** What an isolated run's branch looks like (`kimi-ts/<swarm or agent id>/<n>`). */
const AGENT_BRANCH = /^kimi-ts\/[a-z0-9]{1,32}\/\d+$/;

/**
 * The repository a leftover worktree belongs to, when it really is one of ours: its `.git` file
 * names `<repo>/.git/worktrees/<name>`, and that entry names this worktree back (a `.git` file
 * pointed elsewhere by the run does not pass).
 */
async function repositoryOf(path: string): Promise<{ repoRoot: string; gitFile: string } | null> {
  const gitFile = await readFile(join(path, '.git'), 'utf8').catch(() => null);
  if (gitFile === null) return null;
  const gitdir = /^gitdir: (.+)\n?$/.exec(gitFile)?.[1];
  if (!gitdir || basename(dirname(gitdir)) !== 'worktrees') return null;
  const back = await readFile(join(gitdir, 'gitdir'), 'utf8').catch(() => null);
  if (back === null || resolve(back.trim()) !== resolve(path, '.git')) return null;
  const commonDir = dirname(dirname(gitdir));
  if (basename(commonDir) !== '.git') return null;
  return { repoRoot: await realpath(dirname(commonDir)), gitFile };
}

/**
 * Worktrees a run of this session left behind when kimi-ts itself was killed mid-run: what each
 * holds is committed on its branch and the worktree removed, as a finished run's would be. Returns
 * the branches that got a commit. A folder that is not one of ours is left alone.
 */
export async function recoverLeftWorktrees(worktreesDir: string): Promise<string[]> {
  const entries = await readdir(worktreesDir).catch(() => [] as string[]);
  const recovered: string[] = [];
  for (const entry of entries) {
    const path = join(worktreesDir, entry);
    const repository = await repositoryOf(path);
    if (!repository) continue;
    const head = await repoGit(['symbolic-ref', '--short', 'HEAD'], path).catch(() => null);
    const branch = head?.stdout.trim() ?? '';
    if (!AGENT_BRANCH.test(branch)) continue;
    const base = (await repoGit(['rev-parse', 'HEAD'], path)).stdout.trim();
    const outcome = await finishAgentWorktree(
      { ...repository, path, workDir: path, branch, base },
      `kimi-ts: what an interrupted run left in ${entry}`,
    ).catch(() => null);
    if (outcome?.branch) recovered.push(outcome.branch);
  }
  return recovered;
}
