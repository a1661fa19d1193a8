import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';

/** How often a dying process group is checked; there is no event for "the last member exited". */
const POLL_INTERVAL_MS = 20;
/** After SIGKILL the kernel needs a moment; waiting longer than this would only hide a bug. */
const AFTER_SIGKILL_WAIT_MS = 2_000;

/**
 * Whether a process is alive. A zombie counts as dead: it runs nothing and only waits for a parent
 * to reap it, which may never happen in a container whose PID 1 does not reap orphans.
 */
export function isProcessAlive(pid: number): boolean {
  if (!signalReaches(pid)) return false;
  if (process.platform !== 'linux') return true;
  const state = linuxProcessState(pid);
  return state !== null && state.state !== 'Z';
}

/** Whether any live (non-zombie) process remains in the process group `pgid`. */
export function isProcessGroupAlive(pgid: number): boolean {
  if (!signalReaches(-pgid)) return false;
  if (process.platform !== 'linux') return true;
  for (const pid of listLinuxPids()) {
    const state = linuxProcessState(pid);
    if (state && state.pgrp === pgid && state.state !== 'Z') return true;
  }
  return false;
}

/**
 * Whether a live member of the group has `name=value` in its environment: proof that a group id
 * read from an old file still belongs to the process we started, not to an unrelated program that
 * got the same id later. Off Linux it cannot be checked and the group is trusted.
 */
export function processGroupHasEnv(pgid: number, name: string, value: string): boolean {
  if (!isProcessGroupAlive(pgid)) return false;
  if (process.platform !== 'linux') return true;
  const wanted = `${name}=${value}`;
  for (const pid of listLinuxPids()) {
    const state = linuxProcessState(pid);
    if (!state || state.pgrp !== pgid || state.state === 'Z') continue;
    try {
      if (readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(wanted)) return true;
    } catch {
      // Gone, or not ours to read.
    }
  }
  return false;
}

export interface KillGroupOptions {
  /** Time the group gets to exit after SIGTERM before SIGKILL. */
  graceMs: number;
}

/**
 * Ends a whole process group: SIGTERM, then SIGKILL to whatever is still alive after the grace
 * period. Resolves once no live member remains (or shortly after SIGKILL if the kernel is slow).
 * The group is the one `spawn(..., { detached: true })` created: its id is the leader's pid.
 */
export async function killProcessGroup(pgid: number, options: KillGroupOptions): Promise<void> {
  if (!sendToGroup(pgid, 'SIGTERM')) return;
  if (await waitForGroupExit(pgid, options.graceMs)) return;
  if (!sendToGroup(pgid, 'SIGKILL')) return;
  await waitForGroupExit(pgid, AFTER_SIGKILL_WAIT_MS);
}

/** Polls until the group has no live member; false if it still has one after `timeoutMs`. */
export async function waitForGroupExit(pgid: number, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (isProcessGroupAlive(pgid)) {
    if (performance.now() >= deadline) return false;
    await delay(POLL_INTERVAL_MS);
  }
  return true;
}

const groupsToKillOnExit = new Set<number>();
let exitHookInstalled = false;

/**
 * Kills the group with SIGKILL if this program exits while it still runs (a foreground command
 * whose detached group would otherwise outlive us). Returns the function that forgets it again.
 */
export function killGroupOnExit(pgid: number): () => void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // 'exit' handlers must be synchronous: a signal is all there is time for.
    process.once('exit', () => {
      for (const group of groupsToKillOnExit) {
        try {
          sendToGroup(group, 'SIGKILL');
        } catch {
          // Nothing more can be done while exiting.
        }
      }
    });
  }
  groupsToKillOnExit.add(pgid);
  return () => {
    groupsToKillOnExit.delete(pgid);
  };
}

/** Sends a signal to every process of the group; false when the group no longer exists. */
function sendToGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    if (errorCode(error) === 'ESRCH') return false;
    throw error;
  }
}

function signalReaches(target: number): boolean {
  try {
    process.kill(target, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return errorCode(error) === 'EPERM';
  }
}

interface LinuxProcessState {
  state: string;
  pgrp: number;
}

/** State and process group from `/proc/<pid>/stat`; null off Linux or when the process is gone. */
function linuxProcessState(pid: number): LinuxProcessState | null {
  if (process.platform !== 'linux') return null;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name (field 2) is in parentheses and may itself contain spaces or parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const [state, , pgrp] = fields;
  if (state === undefined || pgrp === undefined) return null;
  return { state, pgrp: Number(pgrp) };
}

function listLinuxPids(): number[] {
  try {
    return readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map(Number);
  } catch {
    return [];
  }
}

function errorCode(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error ? String(error.code) : undefined;
}
