import { readFileSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../util/atomic-file.js';
import { builtOnFirstUse } from '../util/built-on-first-use.js';

/**
 * The folders the person trusts, by real path, kept in kimi-ts's home (never in a workspace: a
 * repository must not be able to trust itself). A trusted folder covers the folders below it, as
 * Claude Code's trust does, except for their own rules files: a sub-folder's allow rules need the
 * sub-folder's own trust (a command run in the parent could have written them). The question a
 * front end asks trusts the work dir itself, no parent.
 */
export const TRUSTED_FOLDERS_FILE = 'trusted-folders.json';

function buildRecordSchema() {
  const absolutePath = z.string().refine(isAbsolute, 'must be an absolute path');
  return z.object({
    version: z.literal(1),
    folders: z.array(absolutePath),
    /** Folders the person said "No" to when asked: not asked again (a later "yes" takes it out). */
    declined: z.array(absolutePath).default([]),
  });
}

/** Made when a record is first read: a new home has none, and nothing reads one before the first request. */
const recordSchema = builtOnFirstUse(buildRecordSchema);

/** The trust record: the trusted folders, and those the person declined to trust. */
export type TrustRecord = z.output<ReturnType<typeof buildRecordSchema>>;

/** Where the trust record of a home lives. */
export function trustedFoldersFile(home: string): string {
  return join(home, TRUSTED_FOLDERS_FILE);
}

/** A trust record that cannot be read; the message names the file. */
export class TrustRecordError extends Error {
  override name = 'TrustRecordError';
}

/** The trusted folders of the record; a missing file trusts nothing. */
export async function readTrustedFolders(file: string): Promise<string[]> {
  return (await readTrustRecord(file)).folders;
}

/** The whole record; a missing file is an empty one. */
export async function readTrustRecord(file: string): Promise<TrustRecord> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, folders: [], declined: [] };
    throw error;
  }
  return parseTrustRecord(text, file);
}

/**
 * The trusted folders of the record, read synchronously (the sandbox reads it again before a launch
 * when its stamp changed); a missing file, or one that cannot be read, trusts nothing.
 */
export function readTrustedFoldersSync(file: string): string[] {
  try {
    return parseTrustRecord(readFileSync(file, 'utf8'), file).folders;
  } catch {
    return [];
  }
}

function parseTrustRecord(text: string, file: string): TrustRecord {
  try {
    return recordSchema().parse(JSON.parse(text));
  } catch (error) {
    const why = error instanceof z.ZodError ? z.prettifyError(error) : (error as Error).message;
    throw new TrustRecordError(`The trust record ${file} cannot be read (${why}); fix or delete it.`);
  }
}

/** Adds a folder (a real path) to the trusted ones (no longer declined). */
export async function addTrustedFolder(file: string, realFolder: string): Promise<void> {
  const record = await readTrustRecord(file);
  if (record.folders.includes(realFolder) && !record.declined.includes(realFolder)) return;
  await writeTrustRecord(file, {
    version: 1,
    folders: record.folders.includes(realFolder) ? record.folders : [...record.folders, realFolder],
    declined: record.declined.filter((folder) => folder !== realFolder),
  });
}

/**
 * Records the person's "No" for a folder (a real path): not asked again. A trust of exactly that
 * folder in the record goes (from the next session on); a trusted parent still covers it.
 */
export async function addDeclinedFolder(file: string, realFolder: string): Promise<void> {
  const record = await readTrustRecord(file);
  if (record.declined.includes(realFolder) && !record.folders.includes(realFolder)) return;
  await writeTrustRecord(file, {
    version: 1,
    folders: record.folders.filter((folder) => folder !== realFolder),
    declined: record.declined.includes(realFolder) ? record.declined : [...record.declined, realFolder],
  });
}

/** Written whole and renamed into place, mode 0600, in a folder of mode 0700. */
async function writeTrustRecord(file: string, record: TrustRecord): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await writeFileAtomic(file, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
}

/** Whether `realFolder` is one of `trusted` or below one of them. */
export function isCoveredBy(realFolder: string, trusted: readonly string[]): boolean {
  return trusted.some((root) => isSameOrBelow(realFolder, root));
}

/** Whether `realFolder` is exactly one of `trusted` (not merely below one). */
export function isListedIn(realFolder: string, trusted: readonly string[]): boolean {
  return trusted.some((root) => relative(root, realFolder) === '');
}

function isSameOrBelow(realFolder: string, root: string): boolean {
  const rel = relative(root, realFolder);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}
