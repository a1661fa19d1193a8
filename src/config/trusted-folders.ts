import { mkdir, readFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../util/atomic-file.js';

/**
 * The folders the person trusts, by real path, kept in kimi-ts's home (never in a workspace: a
 * repository must not be able to trust itself). A trusted folder covers the folders below it, as
 * Claude Code's trust does; the question a front end asks trusts the work dir itself, no parent.
 */
export const TRUSTED_FOLDERS_FILE = 'trusted-folders.json';

const recordSchema = z.object({
  version: z.literal(1),
  folders: z.array(z.string().refine(isAbsolute, 'must be an absolute path')),
});

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
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  try {
    return recordSchema.parse(JSON.parse(text)).folders;
  } catch (error) {
    const why = error instanceof z.ZodError ? z.prettifyError(error) : (error as Error).message;
    throw new TrustRecordError(`The trust record ${file} cannot be read (${why}); fix or delete it.`);
  }
}

/** Adds a folder (a real path) to the record: written whole and renamed into place, mode 0600. */
export async function addTrustedFolder(file: string, realFolder: string): Promise<void> {
  const folders = await readTrustedFolders(file);
  if (folders.includes(realFolder)) return;
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const data = { version: 1, folders: [...folders, realFolder] };
  await writeFileAtomic(file, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
}

/** Whether `realFolder` is one of `trusted` or below one of them. */
export function isCoveredBy(realFolder: string, trusted: readonly string[]): boolean {
  return trusted.some((root) => {
    const rel = relative(root, realFolder);
    return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
  });
}
