import type { ChildProcess } from 'node:child_process';
import { constants } from 'node:os';
import type { Readable } from 'node:stream';
import type { SandboxLaunch } from '../../policy/sandbox.js';
import { type LaunchDescriptors, openLaunchDescriptors } from '../../policy/sandbox-bind-fds.js';
import { childProcess } from '../../util/child-process.js';
import { isProcessGroupAlive, killGroupOnExit, killProcessGroup } from './process-group.js';
import { bashSpawnArgs } from './spawn-command.js';

export interface CommandRun {
  bashPath: string;
  command: string;
  cwd: string;
  env: Record<string, string>;
  /** Runs bash behind this argv prefix (the sandbox's `bwrap … --`, always with its own PID namespace). */
  sandboxPrefix?: readonly string[] | undefined;
  /**
   * Runs bash in the sandbox started this way (bwrap spawned directly, its descriptor 3 opened
   * here: no shell in front of it); instead of `sandboxPrefix`.
   */
  sandboxLaunch?: SandboxLaunch | undefined;
  timeoutMs: number;
  /** Time the process group gets between SIGTERM and SIGKILL. */
  killGraceMs: number;
  signal: AbortSignal;
  /**
   * Receives output line by line (each with its `\n`; a last line without one comes as it is). A
   * line longer than LINE_PIECE_CHARS comes in pieces, so no line is ever held whole in memory.
   */
  onOutput: (text: string) => void;
}

export type CommandOutcome =
  | {
      kind: 'exited';
      exitCode: number;
      /** A process the command started is still running in its process group (`sleep 300 &`). */
      leftRunning: boolean;
    }
  | { kind: 'timed_out' }
  | { kind: 'cancelled' }
  | { kind: 'spawn_failed'; error: Error };

type StopReason = 'timed_out' | 'cancelled';

/** The longest piece of one line passed on at once; a longer line comes in several pieces. */
export const LINE_PIECE_CHARS = 64 * 1024;
/**
 * After the command exits, output still in the pipes is read until they close or stay quiet this
 * long: a process it left in the background may hold them open forever.
 */
const DRAIN_QUIET_MS = 100;
/** The drain ends after this long even if a leftover process keeps writing. */
const DRAIN_MAX_MS = 2_000;

/**
 * Runs `bash -c command` in its own process group with stdin closed, passing stdout and stderr on
 * line by line as they arrive (interleaved in arrival order). On timeout or abort the whole group
 * is killed (a command's children and grandchildren too) and the promise resolves only once it
 * is gone, so nothing keeps running after a timeout or a cancel.
 *
 * The command is done when bash exits, not when its pipes close: what is buffered is read, then
 * reading stops, and a process it left running in the background (`server &`) is reported, not
 * waited for. Such a process stays in the group, which is killed when this program exits.
 */
export async function runCommand(run: CommandRun): Promise<CommandOutcome> {
  if (run.signal.aborted) return { kind: 'cancelled' };
  let child: ChildProcess;
  const prefix = run.sandboxLaunch?.argv ?? run.sandboxPrefix;
  let descriptors: LaunchDescriptors | undefined;
  try {
    const { file, args } = bashSpawnArgs(run.bashPath, run.command, prefix);
    // The seccomp program and the bind sources (opened with no symlink followed, checked to be what
    // the sandbox decided on): the child gets its own copies, ours are closed once it is spawned.
    if (run.sandboxLaunch) descriptors = openLaunchDescriptors(run.sandboxLaunch);
    child = childProcess().spawn(file, args, {
      cwd: run.cwd,
      env: run.env,
      stdio: ['ignore', 'pipe', 'pipe', ...(descriptors?.stdio ?? [])],
      // A new session, so the command and everything it starts share a process group we can kill.
      detached: true,
    });
  } catch (error) {
    return { kind: 'spawn_failed', error: asError(error) };
  } finally {
    descriptors?.close();
  }

  const forgetGroup = child.pid !== undefined ? killGroupOnExit(child.pid) : () => {};
  let keepGroup = false;
  const exited = new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? signalExitCode(signal)));
  });
  const activity = { lastDataAt: performance.now() };
  const outputDone = Promise.all([
    forwardLines(child.stdout, run.onOutput, activity),
    forwardLines(child.stderr, run.onOutput, activity),
  ]);
  const finished = exited.then(async (exitCode) => {
    await drainAfterExit(outputDone, activity);
    return exitCode;
  });
  // Whichever way the race below goes, neither promise may end as an unhandled rejection.
  finished.catch(() => {});

  let requestStop!: (reason: StopReason) => void;
  const stopRequested = new Promise<StopReason>((resolve) => {
    requestStop = resolve;
  });
  const timer = setTimeout(() => requestStop('timed_out'), run.timeoutMs);
  const onAbort = (): void => requestStop('cancelled');
  run.signal.addEventListener('abort', onAbort, { once: true });

  try {
    const first = await Promise.race([
      finished.then((exitCode) => ({ exitCode })),
      stopRequested.then((reason) => ({ reason })),
    ]);
    if ('exitCode' in first) {
      // Behind the sandbox nothing outlives the command: bwrap runs it in its own PID namespace,
      // whose init ends with it and takes every process in it along (`setsid` or not). Only that
      // init's zombie may stay in the group (bwrap exits without reaping it), and then the group
      // check below reads /proc/*/stat of every process on the machine (~2 ms CPU) on every step.
      child.stdout?.destroy();
      child.stderr?.destroy();
      const isSandboxed = (prefix?.length ?? 0) > 0;
      const leftRunning = child.pid !== undefined && !isSandboxed && isProcessGroupAlive(child.pid);
      // What is left keeps running until this program exits, then goes with its group.
      if (leftRunning) keepGroup = true;
      return { kind: 'exited', exitCode: first.exitCode, leftRunning };
    }
    if (child.pid !== undefined) await killProcessGroup(child.pid, { graceMs: run.killGraceMs });
    // A process that left the group (its own setsid) may still hold the pipes: stop reading them.
    child.stdout?.destroy();
    child.stderr?.destroy();
    await exited.catch(() => {});
    return { kind: first.reason };
  } catch (error) {
    return { kind: 'spawn_failed', error: asError(error) };
  } finally {
    clearTimeout(timer);
    run.signal.removeEventListener('abort', onAbort);
    if (!keepGroup) forgetGroup();
  }
}

/**
 * Resolves when both pipes have closed, or once they have been quiet for DRAIN_QUIET_MS (a leftover
 * process holds them), and at the latest after DRAIN_MAX_MS.
 */
async function drainAfterExit(outputDone: Promise<unknown>, activity: { lastDataAt: number }): Promise<void> {
  const exitedAt = performance.now();
  const deadline = exitedAt + DRAIN_MAX_MS;
  let closed = false;
  void outputDone.then(() => {
    closed = true;
  });
  // A plain timer, cleared at the end: aborting a timers/promises delay made two errors with stack
  // traces (the signal's DOMException and the delay's AbortError) on every command, ~0.1 ms a step.
  let timer: NodeJS.Timeout | undefined;
  try {
    while (!closed) {
      const now = performance.now();
      // Quiet counts from the exit at the earliest: output written just before it may not have been
      // read yet when the exit is reported.
      const quietUntil = Math.max(activity.lastDataAt, exitedAt) + DRAIN_QUIET_MS;
      if (now >= deadline || now >= quietUntil) return;
      const pause = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, Math.min(quietUntil, deadline) - now);
      });
      await Promise.race([outputDone, pause]);
      clearTimeout(timer);
    }
  } finally {
    // No timer outlives the drain.
    clearTimeout(timer);
  }
}

/**
 * Forwards a stream's text line by line (a line longer than LINE_PIECE_CHARS in pieces); resolves
 * when the stream ends or is destroyed.
 */
function forwardLines(
  stream: Readable | null,
  onOutput: (text: string) => void,
  activity: { lastDataAt: number },
): Promise<void> {
  if (!stream) return Promise.resolve();
  stream.setEncoding('utf8');
  let pending = '';
  const emit = (text: string): void => {
    for (let at = 0; at < text.length; at += LINE_PIECE_CHARS)
      onOutput(text.slice(at, at + LINE_PIECE_CHARS));
  };
  return new Promise((resolve) => {
    stream.on('data', (chunk: string) => {
      activity.lastDataAt = performance.now();
      // Newlines are searched in the new chunk only: a long line is never scanned twice.
      let start = 0;
      for (let newline = chunk.indexOf('\n'); newline !== -1; newline = chunk.indexOf('\n', start)) {
        emit(pending + chunk.slice(start, newline + 1));
        pending = '';
        start = newline + 1;
      }
      pending += chunk.slice(start);
      if (pending.length >= LINE_PIECE_CHARS) {
        emit(pending);
        pending = '';
      }
    });
    stream.once('close', () => {
      if (pending) onOutput(pending);
      pending = '';
      resolve();
    });
  });
}

/** The exit code a shell reports for a process ended by a signal: 128 + the signal's number. */
function signalExitCode(signal: NodeJS.Signals | null): number {
  if (signal === null) return 1;
  return 128 + (constants.signals[signal] ?? 0);
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
