import { mkdirSync, readFileSync, readlinkSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The answer of the trial `bwrap … true` kept on disk in the agent home, so a session's start does
 * not spawn bubblewrap (38–70 ms on a loaded machine, on the path before the first model request).
 *
 * The answer is kept with what decides it: the bwrap binary (path, size, mtime, ctime, inode), the
 * kernel (release), the user namespace this process runs in, the user id, and the sysctls that allow
 * or refuse unprivileged user namespaces. Any of them different, and the probe runs again. A wrong
 * answer fails closed either way: "available" when it is not makes the first command fail in bwrap;
 * "unavailable" when it is makes every command asked. The agent home is hidden from sandboxed
 * commands, so a command cannot write the answer.
 */

/** The files whose contents decide whether unprivileged user namespaces work (absent ones read as ''). */
const USERNS_SYSCTLS = [
  '/proc/sys/kernel/unprivileged_userns_clone',
  '/proc/sys/user/max_user_namespaces',
  '/proc/sys/kernel/apparmor_restrict_unprivileged_userns',
  '/proc/sys/kernel/unprivileged_userns_apparmor_policy',
  '/proc/sys/kernel/osrelease',
] as const;

/** The trial's answer, as kept in the file: `{ key, verdict }`. */
export type ProbeVerdict = { available: true } | { available: false; problem: string; fix: string };

/** What the trial's answer depends on, as one string; null when it cannot be told (then always probe). */
export function probeKey(bwrap: string, seccompArch: string | null): string | null {
  try {
    const binary = statSync(bwrap);
    const facts = [
      bwrap,
      binary.size,
      binary.mtimeMs,
      binary.ctimeMs,
      binary.ino,
      process.getuid?.() ?? '',
      seccompArch ?? '',
      readOrEmpty(() => readlinkSync('/proc/self/ns/user')),
      ...USERNS_SYSCTLS.map((file) => readOrEmpty(() => readFileSync(file, 'utf8').trim())),
    ];
    return JSON.stringify(facts);
  } catch {
    return null;
  }
}

function readOrEmpty(read: () => string): string {
  try {
    return read();
  } catch {
    return '';
  }
}

const fileIn = (cacheDir: string) => join(cacheDir, 'sandbox-host.json');

/** The kept verdict for this key, or null (none, another key, unreadable, malformed). */
export function readProbeVerdict(cacheDir: string, key: string): ProbeVerdict | null {
  try {
    return keptVerdict(JSON.parse(readFileSync(fileIn(cacheDir), 'utf8')), key);
  } catch {
    return null;
  }
}

/**
 * The verdict of a parsed file when it is for `key` and well formed (its own fields only), else null.
 * Checked by hand, not by a zod schema: one small read per start did not pay for building a schema
 * (~1 ms of CPU at load, before the first model request).
 */
function keptVerdict(file: unknown, key: string): ProbeVerdict | null {
  if (!isRecord(file) || file.key !== key || !isRecord(file.verdict)) return null;
  const { available, problem, fix } = file.verdict;
  if (available === true) return { available: true };
  if (available === false && typeof problem === 'string' && typeof fix === 'string')
    return { available: false, problem, fix };
  return null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Keeps the verdict (atomically: a concurrent start reads the old file or the new one). */
export function writeProbeVerdict(cacheDir: string, key: string, verdict: ProbeVerdict): void {
  try {
    mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
    const file = fileIn(cacheDir);
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify({ key, verdict }), { mode: 0o600 });
    renameSync(temporary, file);
  } catch {
    // Not kept: the next start probes again.
  }
}
