import type { ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { constants } from 'node:os';
import type { SandboxLaunch } from '../../policy/sandbox.js';
import { type LaunchDescriptors, openLaunchDescriptors } from '../../policy/sandbox-bind-fds.js';
import { childProcess } from '../../util/child-process.js';
import { bashSpawnArgs } from '../shell/spawn-command.js';

export interface BashTaskLaunch {
  shellPath: string;
  command: string;
  cwd: string;
  env: Record<string, string>;
  /** Runs bash in the sandbox started this way (bwrap spawned directly, its descriptors passed here). */
  sandboxLaunch?: SandboxLaunch | undefined;
  /** stdout and stderr both append here, in the order the command writes them. */
  outputPath: string;
}

export interface BashTaskProcess {
  /** The bash process; also the id of the process group holding everything the command starts. */
  readonly pid: number;
  /** Resolves with the exit code (128 + signal number when a signal ended it). */
  readonly exited: Promise<number>;
  /** Lets this program exit while the task keeps running (keep-alive on exit). */
  unref(): void;
}

/**
 * Starts `bash -c command` as the leader of a new process group, stdin closed and output going
 * straight into the output file: the task needs nobody reading pipes, so it can outlive this
 * program when asked to. Resolves once the process exists; rejects if it could not be started.
 */
export function spawnBashTask(launch: BashTaskLaunch): Promise<BashTaskProcess> {
  const fd = openSync(launch.outputPath, 'a');
  let descriptors: LaunchDescriptors | undefined;
  let child: ChildProcess;
  try {
    const { file, args } = bashSpawnArgs(launch.shellPath, launch.command, launch.sandboxLaunch?.argv);
    // The seccomp program and the bind sources, checked to be what the sandbox decided on.
    if (launch.sandboxLaunch) descriptors = openLaunchDescriptors(launch.sandboxLaunch);
    child = childProcess().spawn(file, args, {
      cwd: launch.cwd,
      env: launch.env,
      stdio: ['ignore', fd, fd, ...(descriptors?.stdio ?? [])],
      detached: true,
    });
  } catch (error) {
    return Promise.reject(error);
  } finally {
    // The child has its own copies of the descriptors now.
    closeSync(fd);
    descriptors?.close();
  }

  const exited = new Promise<number>((resolve) => {
    child.once('exit', (code, signal) => {
      resolve(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0));
    });
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('spawn', () => {
      child.off('error', reject);
      // Errors after a successful spawn (a failed kill) are not fatal; the exit event still comes.
      child.on('error', () => {});
      resolve({ pid: child.pid as number, exited, unref: () => child.unref() });
    });
  });
}
