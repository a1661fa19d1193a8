import type { ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { childProcess } from '../util/child-process.js';
import { withTrustedPath } from '../util/path-entries.js';
import { decideFromOutput } from './decision.js';
import type { HookDecision, HookEvent } from './types.js';

/** How much of each of stdout and stderr is kept; the rest is read and dropped so the hook never stalls. */
export const HOOK_OUTPUT_LIMIT_BYTES = 64 * 1024;

/**
 * After the hook's shell has exited, how long its pipes may stay open. A hook that starts a background
 * job without redirecting its output would otherwise hold us until that job ends.
 */
const PIPE_CLOSE_GRACE_MS = 250;

const isPosix = process.platform !== 'win32';

export interface RunHookCommandOptions {
  command: string;
  /** The event being fired: decides the fallback reason of a block without one. */
  event: HookEvent;
  /** The JSON payload, already serialised; written to the hook's stdin. */
  stdin: string;
  cwd: string;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  env?: NodeJS.ProcessEnv | undefined;
  outputLimitBytes?: number | undefined;
}

export interface HookRunResult extends HookDecision {
  /** `null` when the hook did not exit on its own (killed, or it never started). */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  durationMs: number;
  timedOut: boolean;
  aborted: boolean;
  /** Why the command could not be started (missing cwd, no shell), else `null`. */
  error: string | null;
}

/**
 * Runs one hook command through the system shell and decides from its outcome. Never rejects: every
 * failure (spawn error, timeout, abort, odd exit code) allows. On timeout or abort the hook's whole
 * process group is killed, so background children the hook started die with it.
 */
export function runHookCommand(options: RunHookCommandOptions): Promise<HookRunResult> {
  const started = performance.now();
  const base = { exitCode: null, stdout: '', stderr: '', timedOut: false, aborted: false, error: null };
  if (options.signal?.aborted) {
    return Promise.resolve({ ...base, action: 'allow', reason: '', aborted: true, durationMs: 0 });
  }

  let child: ChildProcess;
  try {
    child = childProcess().spawn(options.command, {
      shell: true,
      cwd: options.cwd,
      // Names in the hook's command are found on PATH's trusted entries (src/util/path-entries.ts): it runs in the work tree,
      // where a `.` on PATH would find the repository's own programs.
      env: withTrustedPath(options.env ?? process.env, options.cwd === undefined ? [] : [options.cwd]),
      stdio: ['pipe', 'pipe', 'pipe'],
      // Its own process group, so a timeout can kill the hook together with everything it started.
      detached: isPosix,
      windowsHide: true,
    });
  } catch (error) {
    return Promise.resolve({
      ...base,
      action: 'allow',
      reason: '',
      error: errorText(error),
      durationMs: performance.now() - started,
    });
  }

  const limit = options.outputLimitBytes ?? HOOK_OUTPUT_LIMIT_BYTES;
  const stdout = new BoundedOutput(limit);
  const stderr = new BoundedOutput(limit);
  child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
  // A hook may exit without reading its stdin; the resulting EPIPE is not a failure of ours.
  child.stdin?.on('error', () => {});
  child.stdin?.end(options.stdin);

  return new Promise((resolve) => {
    let timedOut = false;
    let aborted = false;
    let exitCode: number | null = null;
    let exited = false;
    let settled = false;
    let graceTimer: NodeJS.Timeout | undefined;

    const timeoutTimer = setTimeout(() => {
      timedOut = true;
      killProcessGroup(child);
    }, options.timeoutMs);
    const onAbort = () => {
      aborted = true;
      killProcessGroup(child);
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });

    const settle = (error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timeoutTimer);
      clearTimeout(graceTimer);
      options.signal?.removeEventListener('abort', onAbort);
      const out = stdout.text();
      const err = stderr.text();
      const decision: HookDecision =
        timedOut || aborted || error !== null
          ? { action: 'allow', reason: '' }
          : decideFromOutput(options.event, exitCode, out, err);
      resolve({
        ...decision,
        exitCode,
        stdout: out,
        stderr: err,
        durationMs: performance.now() - started,
        timedOut,
        aborted,
        error,
      });
    };

    child.on('error', (error) => {
      // Also emitted when a kill fails after exit; only a failure to start matters here.
      if (!exited) {
        exited = true;
        settle(errorText(error));
      }
    });
    child.once('exit', (code) => {
      exited = true;
      exitCode = code;
      clearTimeout(timeoutTimer);
      options.signal?.removeEventListener('abort', onAbort);
      graceTimer = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        settle(null);
      }, PIPE_CLOSE_GRACE_MS);
    });
    child.once('close', () => settle(null));
  });
}

function killProcessGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  if (isPosix) {
    try {
      process.kill(-child.pid, 'SIGKILL');
      return;
    } catch {
      // The group is gone already, or was never formed: fall back to the shell itself.
    }
  }
  child.kill('SIGKILL');
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Keeps the first `limit` bytes of a stream. */
class BoundedOutput {
  private readonly chunks: Buffer[] = [];
  private size = 0;

  constructor(private readonly limit: number) {}

  push(chunk: Buffer): void {
    const room = this.limit - this.size;
    if (room <= 0) return;
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.chunks.push(kept);
    this.size += kept.length;
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}
