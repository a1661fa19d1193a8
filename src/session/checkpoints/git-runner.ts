import { spawn } from 'node:child_process';

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

export interface GitResult {
  code: number;
  stdout: Buffer;
}

/**
 * Settings that keep the user's git setup out of the store: no system or global config, no hooks,
 * no fsmonitor, no line-ending or case rewriting, no automatic gc in the middle of a turn.
 */
const ISOLATION = [
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'core.autocrlf=false',
  '-c',
  'core.symlinks=true',
  '-c',
  'core.quotepath=off',
  '-c',
  'gc.auto=0',
  '-c',
  'advice.addEmbeddedRepo=false',
  '-c',
  'user.name=kimi-ts',
  '-c',
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
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(options.signal.reason);
      return;
    }
    const child = spawn('git', [...ISOLATION, ...args], {
      env,
      cwd: options.workTree ?? options.gitDir,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    // On abort git gets SIGTERM (it removes its lock files and exits); the promise settles only once
    // it has exited, so after an abort no git of ours is left running.
    const onAbort = () => child.kill('SIGTERM');
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error: NodeJS.ErrnoException) => {
      options.signal?.removeEventListener('abort', onAbort);
      if (error.code === 'ENOENT')
        reject(new CheckpointStoreError('Checkpoints need git, which is not installed.'));
      else reject(error);
    });
    child.on('close', (code) => {
      options.signal?.removeEventListener('abort', onAbort);
      if (options.signal?.aborted) {
        reject(options.signal.reason);
        return;
      }
      const exit = code ?? 1;
      if (exit === 0 || options.okCodes?.includes(exit)) resolve({ code: exit, stdout: Buffer.concat(out) });
      else {
        const message = Buffer.concat(err).toString('utf8').trim().split('\n').slice(-3).join(' ');
        reject(new CheckpointStoreError(`git ${args[0]} failed (${exit}): ${message}`));
      }
    });
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
  });
}

/** Splits NUL-separated git output. */
export function nulFields(buffer: Buffer): string[] {
  const text = buffer.toString('utf8');
  const fields = text.split('\0');
  if (fields.at(-1) === '') fields.pop();
  return fields;
}
