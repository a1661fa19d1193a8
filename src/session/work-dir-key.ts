import { createHash } from 'node:crypto';
import { resolve } from 'node:path';

/** The absolute, normalised form of a work dir, as stored in metadata. */
export function normalizeWorkDir(workDir: string): string {
  return resolve(workDir);
}

/** The name of a work dir's sessions folder: the md5 of its absolute path, as Kimi CLI names it. */
export function workDirKey(workDir: string): string {
  return createHash('md5').update(normalizeWorkDir(workDir), 'utf8').digest('hex');
}
