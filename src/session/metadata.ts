import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../util/atomic-file.js';
import { normalizeWorkDir } from './work-dir-key.js';

/**
 * `<home>/kimi-ts.json`: per work dir, the last session used (what `--continue` resumes), in the
 * shape of Kimi CLI's `kimi.json`. Written atomically; a missing or corrupt file reads as empty.
 * Two processes updating it at the same instant can lose one update (the last rename wins); that only
 * changes which session `--continue` picks, so no cross-process lock is taken.
 */

const workDirEntrySchema = z.looseObject({
  path: z.string(),
  kaos: z.string().default('local'),
  last_session_id: z.string().nullable().default(null),
});

const metadataSchema = z.looseObject({
  work_dirs: z.array(z.unknown()).default([]),
});

export type WorkDirEntry = z.output<typeof workDirEntrySchema>;

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
  const parsed = metadataSchema.safeParse(raw, { jitless: true });
  if (!parsed.success) return { work_dirs: [] };
  const entries = parsed.data.work_dirs.flatMap((item) => {
    const entry = workDirEntrySchema.safeParse(item, { jitless: true });
    return entry.success ? [entry.data] : [];
  });
  return { ...parsed.data, work_dirs: entries };
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
