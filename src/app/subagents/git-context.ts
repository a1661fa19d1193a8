import { repoGit } from './repo-git.js';

const GIT_TIMEOUT_MS = 5_000;
const MAX_DIRTY_FILES = 20;
const RECENT_COMMITS = 5;

type Env = Readonly<Record<string, string | undefined>>;

/**
 * git in the work tree, as for any repository kimi-ts does not trust (repo-git.ts): the repository's
 * own config runs nothing (no fsmonitor, hooks, filter commands, signature checks). Even in a folder
 * the person trusts, the repository may be one a background command made this session and the
 * sandbox has not cleaned yet. git is found on PATH's absolute entries only (a relative one, `.`,
 * would run the repository's own `git`), with the session's PATH and HOME and nothing else of its
 * environment (no API keys). Null when git fails, is missing or takes too long.
 */
async function git(args: string[], cwd: string, env: Env): Promise<string | null> {
  try {
    const signal = AbortSignal.timeout(GIT_TIMEOUT_MS);
    const result = await repoGit(args, cwd, { signal, places: { PATH: env.PATH, HOME: env.HOME } });
    return result.stdout.trimEnd();
  } catch {
    return null;
  }
}

/**
 * A `<git-context>` block for a new `explore` subagent, so it starts knowing where the work stands:
 * the branch, the uncommitted files (at most 20 listed) and the last commits. Each git command may
 * take 5 s; null when the folder is not in a git work tree or git is missing.
 */
export async function gitContext(workDir: string, env: Env): Promise<string | null> {
  const run = (args: string[]) => git(args, workDir, env);
  if ((await run(['rev-parse', '--is-inside-work-tree'])) !== 'true') return null;
  const [branch, head, status, log] = await Promise.all([
    // Also names a branch without commits yet; fails on a detached HEAD, which `head` then shows.
    run(['symbolic-ref', '--short', '-q', 'HEAD']),
    run(['rev-parse', '--short', 'HEAD']),
    run(['status', '--porcelain']),
    run(['log', '--oneline', `-n${RECENT_COMMITS}`]),
  ]);
  const lines = ['<git-context>'];
  if (branch) lines.push(`Branch: ${branch}`);
  else if (head) lines.push(`Branch: none (detached at ${head})`);
  const dirty = status ? status.split('\n').filter(Boolean) : [];
  if (dirty.length === 0) lines.push('Working tree: clean');
  else {
    lines.push(`Uncommitted changes (${dirty.length} file${dirty.length === 1 ? '' : 's'}):`);
    lines.push(...dirty.slice(0, MAX_DIRTY_FILES));
    if (dirty.length > MAX_DIRTY_FILES) lines.push(`... and ${dirty.length - MAX_DIRTY_FILES} more`);
  }
  if (log) lines.push('Recent commits:', log);
  lines.push('</git-context>');
  return lines.join('\n');
}
