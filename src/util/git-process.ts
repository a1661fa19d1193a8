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
  /** Makes the caller's error type from a failure's message. */
  failure: (message: string) => Error;
  /** The message when git itself is not installed. */
  missing: string;
}

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
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    const onAbort = () => child.kill('SIGTERM');
    signal?.addEventListener('abort', onAbort, { once: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
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
