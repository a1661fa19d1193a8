import { type GitProcessResult, runGitProcess } from '../../util/git-process.js';

/** git is not installed, or failed in a way the checkpoint store cannot work around. */
export class CheckpointStoreError extends Error {
  override name = 'CheckpointStoreError';
}

export interface GitRunOptions {
  /** The private repository of the store (never the user's). */
  gitDir: string;
  workTree?: string | undefined;
  indexFile?: string | undefined;
  input?: string | Buffer | undefined;
  signal?: AbortSignal | undefined;
  /** Exit codes that are answers, not failures (e.g. 1 from `diff --quiet`). */
  okCodes?: readonly number[];
}

export type GitResult = GitProcessResult;

/**
 * The longest one git run of the store may take: a first record of a very large tree takes tens of
 * seconds; a git that waits on something a command left in the tree (a FIFO it opens) would
 * otherwise hold the turn, in print mode for ever. The record then fails with this said.
 */
export const STORE_GIT_TIMEOUT_MS = 10 * 60 * 1000;

/**
 * Settings that keep the user's git setup out of the store: no system or global config, no hooks,
 * no fsmonitor, no line-ending or case rewriting, no automatic gc in the middle of a turn.
 */
const ISOLATION = [
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  'core.autocrlf=false',
  'core.symlinks=true',
  'core.quotepath=off',
  'gc.auto=0',
  'advice.addEmbeddedRepo=false',
  'user.name=kimi-ts',
  'user.email=checkpoints@kimi-ts.invalid',
];

/** Runs one git command against the store and collects its output. */
export function runGit(args: readonly string[], options: GitRunOptions): Promise<GitResult> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LANG: 'C',
    GIT_DIR: options.gitDir,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_AUTHOR_DATE: undefined,
    // glibc gives back the heap after every file git deflates, and the next file faults it in again:
    // for a first checkpoint of 10,000 files that is half of git's time. Keeping it costs nothing.
    GLIBC_TUNABLES: 'glibc.malloc.trim_threshold=268435456',
  };
  if (options.workTree) env.GIT_WORK_TREE = options.workTree;
  if (options.indexFile) env.GIT_INDEX_FILE = options.indexFile;
  return runGitProcess(args, {
    cwd: options.workTree ?? options.gitDir,
    env,
    settings: ISOLATION,
    input: options.input,
    signal: options.signal,
    okCodes: options.okCodes,
    timeoutMs: STORE_GIT_TIMEOUT_MS,
    failure: (message) => new CheckpointStoreError(message),
    missing: 'Checkpoints need git, which is not installed.',
  });
}

/** Splits NUL-separated git output. */
export function nulFields(buffer: Buffer): string[] {
  const text = buffer.toString('utf8');
  const fields = text.split('\0');
  if (fields.at(-1) === '') fields.pop();
  return fields;
}
