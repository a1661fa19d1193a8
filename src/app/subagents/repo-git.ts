import { runGitProcess } from '../../util/git-process.js';

/** A git command in the person's repository failed (or git is missing). */
export class RepoGitError extends Error {
  override name = 'RepoGitError';
}

/** One git command's result: its exit code and output. */
export interface RepoGitResult {
  code: number;
  stdout: string;
}

/** A git command that runs longer than this is killed: its caller is waiting on it. */
const GIT_TIMEOUT_MS = 60_000;

/**
 * Settings that keep the repository's own configuration from running anything: the person's repo is
 * untrusted (its `.git/config` may name hooks, an fsmonitor, a signing program, filter commands).
 * `-c` beats the repository's config; the system and global configs are not read at all.
 */
const NEUTRAL = [
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  'core.untrackedCache=false',
  'core.autocrlf=false',
  'core.quotepath=off',
  'commit.gpgSign=false',
  'tag.gpgSign=false',
  // `git log` would run gpg.program for each signed commit it shows.
  'log.showSignature=false',
  'gc.auto=0',
  'maintenance.auto=false',
  'user.name=kimi-ts',
  'user.email=agent@kimi-ts.invalid',
];

/** Where git is looked for and the home it sees: the process's own unless the caller gives its session's. */
export interface RepoGitPlaces {
  readonly PATH?: string | undefined;
  readonly HOME?: string | undefined;
}

function environment(places: RepoGitPlaces = process.env): NodeJS.ProcessEnv {
  return {
    PATH: places.PATH,
    HOME: places.HOME,
    LANG: 'C',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_PAGER: 'cat',
    GIT_EDITOR: 'true',
    GIT_AUTHOR_NAME: 'kimi-ts',
    GIT_AUTHOR_EMAIL: 'agent@kimi-ts.invalid',
    GIT_COMMITTER_NAME: 'kimi-ts',
    GIT_COMMITTER_EMAIL: 'agent@kimi-ts.invalid',
  };
}

export interface RepoGitOptions {
  signal?: AbortSignal | undefined;
  okCodes?: readonly number[] | undefined;
  places?: RepoGitPlaces | undefined;
}

/** Runs git once with the neutral settings plus `extra` ones, in `cwd`; settles only once git exited. */
async function spawnGit(
  args: readonly string[],
  cwd: string,
  options: RepoGitOptions & { extra?: readonly string[] } = {},
): Promise<RepoGitResult> {
  const result = await runGitProcess(args, {
    cwd,
    env: environment(options.places),
    settings: [...NEUTRAL, ...(options.extra ?? [])],
    signal: options.signal,
    okCodes: options.okCodes,
    timeoutMs: GIT_TIMEOUT_MS,
    failure: (message) => new RepoGitError(message),
    missing: 'git is not installed.',
  });
  return { code: result.code, stdout: result.stdout.toString('utf8') };
}

/**
 * Runs git in a repository the person owns but kimi-ts does not trust. Besides the neutral settings,
 * every filter driver the repository configures is emptied (a `smudge` or `clean` command would run
 * on checkout and `add`) and every merge driver turned to `false`: reading the config runs nothing,
 * so the names are read first.
 */
export async function repoGit(
  args: readonly string[],
  cwd: string,
  options: RepoGitOptions = {},
): Promise<RepoGitResult> {
  const listed = await spawnGit(['config', '--name-only', '--get-regexp', '^(filter|merge)\\.'], cwd, {
    signal: options.signal,
    places: options.places,
    okCodes: [1],
  });
  const named = (section: string) =>
    new Set(
      listed.stdout
        .split('\n')
        .map((key) => new RegExp(`^${section}\\.(.+)\\.[^.]+$`).exec(key.trim())?.[1])
        .filter((name): name is string => name !== undefined),
    );
  const extra = [
    ...[...named('filter')].flatMap((name) => [
      `filter.${name}.clean=`,
      `filter.${name}.smudge=`,
      `filter.${name}.process=`,
      `filter.${name}.required=false`,
    ]),
    // A merge driver's command would run on a merge: `false` makes its files conflicts instead.
    ...[...named('merge')].map((name) => `merge.${name}.driver=false`),
  ];
  return spawnGit(args, cwd, { ...options, extra });
}
