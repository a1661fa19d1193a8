import { randomUUID } from 'node:crypto';
import { readFileSync, unlinkSync } from 'node:fs';
import { link, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { SessionError } from './session.js';

/** The lock file in a session folder: the owner's pid while a process has the session open. */
export const SESSION_LOCK_FILE = 'session.lock';

/** Another live process has the session open. */
export class SessionLockedError extends SessionError {
  override name = 'SessionLockedError';

  constructor(
    readonly sessionId: string,
    readonly ownerPid: number,
  ) {
    super(
      ownerPid === process.pid
        ? `Session ${sessionId} is already open in this process.`
        : `Session ${sessionId} is in use by another kimi-ts process (pid ${ownerPid}). ` +
            'Wait for it to finish, or stop that process, then try again.',
    );
  }
}

/** What the lock file says about its owner. */
interface LockOwner {
  pid: number;
  /** Kernel start time of the process (Linux), so a recycled pid is not taken for the owner. */
  started: string | null;
  host: string;
  /**
   * Set when a fleet worker holds the session for one turn job: its real hold is the job's lease
   * (fenced in Redis), so another worker that took the turn over may replace this lock while the
   * first one still lives (paused). An interactive process's lock is never replaced.
   */
  lease: string | null;
}

export interface SessionLock {
  readonly path: string;
  /** Removes the lock file if it is still ours; safe to call more than once. */
  release(): Promise<void>;
}

/**
 * Lock files this process holds (with the text it wrote there), removed synchronously if it exits
 * without closing them. A later lock of the same folder by this process supersedes the earlier one.
 */
const held = new Map<string, string>();
let exitHookInstalled = false;

/**
 * Takes the session folder `dir` for this process. The lock file is created atomically (written
 * aside, then hard-linked into place, which fails if one exists), so a reader never sees a half
 * written owner. A lock whose owner is gone (its pid is dead, or now names another process) is
 * stale and taken over; a live owner makes this throw SessionLockedError.
 */
export async function lockSession(
  sessionId: string,
  dir: string,
  options: { leased?: boolean } = {},
): Promise<SessionLock> {
  const path = join(dir, SESSION_LOCK_FILE);
  const me: LockOwner = {
    pid: process.pid,
    started: processStartTime(process.pid),
    host: hostname(),
    lease: options.leased ? randomUUID() : null,
  };
  const text = `${JSON.stringify(me)}\n`;
  const aside = `${path}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(aside, text, { mode: 0o600 });
  try {
    // A later round follows taking over a stale lock.
    for (let round = 0; round < 3; round++) {
      try {
        await link(aside, path);
        installExitHook();
        held.set(path, text);
        return { path, release: () => releaseLock(path, text) };
      } catch (error) {
        if (errorCode(error) !== 'EEXIST') throw error;
      }
      const ownerText = await readFile(path, 'utf8').catch(() => null);
      if (ownerText === null) continue;
      const owner = parseOwner(ownerText);
      // A fleet worker takes over another worker's lease lock (its turn job moved here).
      if (options.leased && owner?.lease) {
        await rename(aside, path);
        installExitHook();
        held.set(path, text);
        return { path, release: () => releaseLock(path, text) };
      }
      if (owner && isOwnerAlive(owner) && !(owner.pid === process.pid && !held.has(path))) {
        throw new SessionLockedError(sessionId, owner.pid);
      }
      // Stale: remove it only if it still holds what was judged stale (another process may have
      // taken it over in between).
      const again = await readFile(path, 'utf8').catch(() => null);
      if (again === ownerText) await unlink(path).catch(() => undefined);
    }
    throw new Error(`Could not take the lock of session ${sessionId} (${path}).`);
  } finally {
    await unlink(aside).catch(() => undefined);
  }
}

async function releaseLock(path: string, ours: string): Promise<void> {
  if (held.get(path) !== ours) return;
  held.delete(path);
  const current = await readFile(path, 'utf8').catch(() => null);
  if (current === ours) await unlink(path).catch(() => undefined);
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // 'exit' handlers run synchronously: a crash or process.exit() still frees the session.
  process.once('exit', () => {
    for (const path of held.keys()) {
      try {
        const owner = parseOwner(readFileSync(path, 'utf8'));
        if (owner?.pid === process.pid) unlinkSync(path);
      } catch {
        // Already gone (an empty session's folder is removed on close).
      }
    }
    held.clear();
  });
}

function parseOwner(text: string): LockOwner | null {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null) return null;
    const { pid, started, host, lease } = value as Record<string, unknown>;
    if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0) return null;
    return {
      pid,
      started: typeof started === 'string' ? started : null,
      host: typeof host === 'string' ? host : '',
      lease: typeof lease === 'string' ? lease : null,
    };
  } catch {
    return null;
  }
}

function isOwnerAlive(owner: LockOwner): boolean {
  // A lock written on another machine (a shared home folder) cannot be checked: respect it.
  if (owner.host && owner.host !== hostname()) return true;
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    if (errorCode(error) !== 'EPERM') return false;
  }
  const stat = processStat(owner.pid);
  // A zombie has ended (its parent has not reaped it yet, which a killed process's terminal may
  // never do): it holds nothing, though signal 0 still reaches it.
  if (stat?.state === 'Z' || stat?.state === 'X') return false;
  if (owner.started === null) return true;
  return stat === null || stat.started === owner.started;
}

/** Field 22 of `/proc/<pid>/stat` (start time in clock ticks since boot); null off Linux. */
function processStartTime(pid: number): string | null {
  return processStat(pid)?.started ?? null;
}

/** A process's state (field 3) and start time (field 22) from `/proc/<pid>/stat`; null off Linux. */
function processStat(pid: number): { state: string; started: string | null } | null {
  if (process.platform !== 'linux') return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may contain spaces: count from after it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '', started: fields[19] ?? null };
  } catch {
    return null;
  }
}

function errorCode(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error ? String(error.code) : undefined;
}

/** Whether a live process holds the session folder `dir` now (its lock file names a live owner). */
export async function isSessionOpen(dir: string): Promise<boolean> {
  const text = await readFile(join(dir, SESSION_LOCK_FILE), 'utf8').catch(() => null);
  const owner = text === null ? null : parseOwner(text);
  return owner !== null && isOwnerAlive(owner);
}

/**
 * Whether a live process that is not a fleet worker holds the session folder `dir` (a terminal, a web
 * host): a worker leaves its files alone, and opening it then fails with the lock's error.
 */
export async function isSessionHeldOutsideFleet(dir: string): Promise<boolean> {
  const text = await readFile(join(dir, SESSION_LOCK_FILE), 'utf8').catch(() => null);
  const owner = text === null ? null : parseOwner(text);
  return owner !== null && !owner.lease && isOwnerAlive(owner);
}
