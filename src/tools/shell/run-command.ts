import { type ChildProcess, spawn } from 'node:child_process';
import { constants } from 'node:os';
import type { Readable } from 'node:stream';
import { killGroupOnExit, killProcessGroup } from './process-group.js';
import { bashSpawnArgs } from './spawn-command.js';

export interface CommandRun {
  bashPath: string;
  command: string;
  cwd: string;
  env: Record<string, string>;
  /** Runs bash behind this argv prefix (the sandbox's `bwrap … --`). */
  sandboxPrefix?: readonly string[] | undefined;
  timeoutMs: number;
  /** Time the process group gets between SIGTERM and SIGKILL. */
  killGraceMs: number;
  signal: AbortSignal;
  /** Receives output line by line (each with its `\n`; a last line without one comes as it is). */
  onOutput: (text: string) => void;
}

export type CommandOutcome =
  | { kind: 'exited'; exitCode: number }
  | { kind: 'timed_out' }
  | { kind: 'cancelled' }
  | { kind: 'spawn_failed'; error: Error };

type StopReason = 'timed_out' | 'cancelled';

/**
 * Runs `bash -c command` in its own process group with stdin closed, passing stdout and stderr on
 * line by line as they arrive (interleaved in arrival order). On timeout or abort the whole group
 * is killed (a command's children and grandchildren too) and the promise resolves only once it
 * is gone, so nothing keeps running after a timeout or a cancel.
 */
export async function runCommand(run: CommandRun): Promise<CommandOutcome> {
  if (run.signal.aborted) return { kind: 'cancelled' };
  let child: ChildProcess;
  try {
    const { file, args } = bashSpawnArgs(run.bashPath, run.command, run.sandboxPrefix);
    child = spawn(file, args, {
      cwd: run.cwd,
      env: run.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      // A new session, so the command and everything it starts share a process group we can kill.
      detached: true,
    });
  } catch (error) {
    return { kind: 'spawn_failed', error: asError(error) };
  }

  const forgetGroup = child.pid !== undefined ? killGroupOnExit(child.pid) : () => {};
  const exited = new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? signalExitCode(signal)));
  });
  const outputDone = Promise.all([
    forwardLines(child.stdout, run.onOutput),
    forwardLines(child.stderr, run.onOutput),
  ]);
  const finished = Promise.all([exited, outputDone]).then(([exitCode]) => exitCode);
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
    if ('exitCode' in first) return { kind: 'exited', exitCode: first.exitCode };
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
    forgetGroup();
  }
}

/** Forwards a stream's text line by line; resolves when the stream ends or is destroyed. */
function forwardLines(stream: Readable | null, onOutput: (text: string) => void): Promise<void> {
  if (!stream) return Promise.resolve();
  stream.setEncoding('utf8');
  let pending = '';
  return new Promise((resolve) => {
    stream.on('data', (chunk: string) => {
      pending += chunk;
      let start = 0;
      for (let newline = pending.indexOf('\n'); newline !== -1; newline = pending.indexOf('\n', start)) {
        onOutput(pending.slice(start, newline + 1));
        start = newline + 1;
      }
      pending = pending.slice(start);
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
