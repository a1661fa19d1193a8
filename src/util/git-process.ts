import { childProcess } from './child-process.js';
import { trustedPathEntries } from './path-entries.js';

/** How to run one git process: everything that differs between the callers that run git. */
export interface GitProcessOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** `-c` settings, each `name=value`; they beat the repository's own config. */
  settings: readonly string[];
  input?: string | Buffer | undefined;
  signal?: AbortSignal | undefined;
  /** Exit codes that are answers, not failures (e.g. 1 from `diff --quiet`). */
  okCodes?: readonly number[] | undefined;
  /** Killed (SIGKILL) after this long; no limit when absent. */
  timeoutMs?: number | undefined;
  /**
   * Killed (SIGKILL) once its stdout passes this many bytes: git's output is held in memory whole,
   * and a work tree a command filled (millions of long paths) must not take the agent down with it.
   */
  maxStdoutBytes?: number | undefined;
  /** Makes the caller's error type from a failure's message. */
  failure: (message: string) => Error;
  /** The message when git itself is not installed. */
  missing: string;
}

/** What any git run may print before it is stopped (a listing of a few million paths fits). */
export const MAX_GIT_STDOUT_BYTES = 512 * 1024 * 1024;

/** One git process's result: its exit code and stdout. */
export interface GitProcessResult {
  code: number;
  stdout: Buffer;
}

/**
 * Runs git once and collects its output. On abort git gets SIGTERM (it removes its lock files and
 * exits); the promise settles only once git has exited, so after an abort no git is left running.
 * A failure's message is git's last three lines of stderr.
 */
export function runGitProcess(
  args: readonly string[],
  options: GitProcessOptions,
): Promise<GitProcessResult> {
  const { signal } = options;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const child = childProcess().spawn(
      'git',
      [...options.settings.flatMap((setting) => ['-c', setting]), ...args],
      {
        cwd: options.cwd,
        env: { ...options.env, PATH: trustedPathEntries(options.env.PATH, [options.cwd]) },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    /** Why kimi-ts killed it (a limit), for the failure's message. */
    let stopped: string | null = null;
    const stop = (why: string) => {
      stopped ??= why;
      child.kill('SIGKILL');
    };
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => stop(`did not finish in ${durationText(options.timeoutMs!)}`), options.timeoutMs);
    const onAbort = () => child.kill('SIGTERM');
    signal?.addEventListener('abort', onAbort, { once: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const maxOut = options.maxStdoutBytes ?? MAX_GIT_STDOUT_BYTES;
    let outBytes = 0;
    let errBytes = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > maxOut) stop(`printed more than ${maxOut} bytes`);
      else out.push(chunk);
    });
    // Only the last lines are shown: a bounded window is kept.
    child.stderr.on('data', (chunk: Buffer) => {
      err.push(chunk);
      errBytes += chunk.length;
      while (errBytes > 64 * 1024 && err.length > 1) errBytes -= err.shift()!.length;
    });
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    child.on('error', (error: NodeJS.ErrnoException) => {
      done();
      reject(error.code === 'ENOENT' ? options.failure(options.missing) : options.failure(error.message));
    });
    child.on('close', (code) => {
      done();
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      if (stopped !== null) {
        reject(options.failure(`git ${subcommandOf(args)} ${stopped}; it was stopped`));
        return;
      }
      const exit = code ?? 1;
      if (exit === 0 || options.okCodes?.includes(exit)) {
        resolve({ code: exit, stdout: Buffer.concat(out) });
        return;
      }
      const message = Buffer.concat(err).toString('utf8').trim().split('\n').slice(-3).join(' ');
      reject(options.failure(`git ${subcommandOf(args)} failed (${exit}): ${message}`));
    });
    // git sees the input, or an empty stdin: never the agent's own.
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
  });
}

/** The git command a run is (`add` of `-c core.x=y add -A`): what a failure message names. */
function subcommandOf(args: readonly string[]): string {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-c' || arg === '-C') i++;
    else if (!arg.startsWith('-')) return arg;
  }
  return args[0] ?? '';
}

function durationText(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;
}
