import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../util/atomic-file.js';
import { normalizeWorkDir } from './work-dir-key.js';

/**
 * `<home>/kimi-ts.json`: per work dir, the last session used (what `--continue` resumes), in the
 * shape of Kimi CLI's `kimi.json`. Written atomically; a missing or corrupt file reads as empty.
 * Two processes updating it at the same instant can lose one update (the last rename wins); that only
 * changes which session `--continue` picks, so no cross-process lock is taken.
 */

export interface WorkDirEntry {
  path: string;
  /** Kimi CLI's execution environment; kimi-ts's sessions are all 'local'. */
  kaos: string;
  last_session_id: string | null;
  [key: string]: unknown;
}

export interface Metadata {
  work_dirs: WorkDirEntry[];
  [key: string]: unknown;
}

export const METADATA_FILE = 'kimi-ts.json';

export function metadataFile(home: string): string {
  return join(home, METADATA_FILE);
}

export async function readMetadata(home: string): Promise<Metadata> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(metadataFile(home), 'utf8'));
  } catch {
    return { work_dirs: [] };
  }
  if (!isObject(raw)) return { work_dirs: [] };
  const workDirs = raw.work_dirs === undefined ? [] : raw.work_dirs;
  if (!Array.isArray(workDirs)) return { work_dirs: [] };
  const entries: WorkDirEntry[] = [];
  for (let i = 0; i < workDirs.length; i++) {
    const entry = workDirEntryOf(workDirs[i]);
    if (entry !== undefined) entries.push(entry);
  }
  return { ...withOtherKeys({ work_dirs: [] }, raw), work_dirs: entries };
}

// Read by hand, not by a zod schema (a session's start reads this file on the path to its first model
// request, and zod built 13 objects for it), with the schema's rules: `work_dirs` an array (absent:
// none), each entry a table with a text `path`, `kaos` a text ('local' when absent) and
// `last_session_id` a text or null (null when absent); entries that are not are left out; other
// keys are kept, after the known ones.
function workDirEntryOf(item: unknown): WorkDirEntry | undefined {
  if (!isObject(item)) return undefined;
  const { path, kaos = 'local', last_session_id = null } = item;
  if (typeof path !== 'string' || typeof kaos !== 'string') return undefined;
  if (last_session_id !== null && typeof last_session_id !== 'string') return undefined;
  return withOtherKeys({ path, kaos, last_session_id }, item);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `known`, then `raw`'s other enumerable keys (but `__proto__`, which would set the prototype). */
function withOtherKeys<T extends Record<string, unknown>>(known: T, raw: Record<string, unknown>): T {
  const out: Record<string, unknown> = { ...known };
  for (const key in raw) {
    if (Object.hasOwn(known, key) || key === '__proto__') continue;
    out[key] = raw[key];
  }
  return out as T;
}

/** The session `--continue` should resume in this work dir, if one was recorded. */
export async function lastSessionId(home: string, workDir: string): Promise<string | null> {
  const path = normalizeWorkDir(workDir);
  const metadata = await readMetadata(home);
  return (
    metadata.work_dirs.find((entry) => entry.path === path && entry.kaos === 'local')?.last_session_id ?? null
  );
}

let updates: Promise<unknown> = Promise.resolve();

/** Records the last session of a work dir. Updates from this process are applied one at a time. */
export function recordLastSession(home: string, workDir: string, sessionId: string): Promise<void> {
  const next = updates
    .catch(() => undefined)
    .then(async () => {
      const path = normalizeWorkDir(workDir);
      const metadata = await readMetadata(home);
      const entry = metadata.work_dirs.find((item) => item.path === path && item.kaos === 'local');
      if (entry) entry.last_session_id = sessionId;
      else metadata.work_dirs.push({ path, kaos: 'local', last_session_id: sessionId });
      await mkdir(dirname(metadataFile(home)), { recursive: true });
      await writeFileAtomic(metadataFile(home), `${JSON.stringify(metadata, null, 2)}\n`);
    });
  updates = next;
  return next;
}
