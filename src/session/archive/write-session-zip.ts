import { createHash, randomBytes } from 'node:crypto';
import { constants, createWriteStream } from 'node:fs';
import { link, lstat, open, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import { SessionError } from '../session.js';
import { ARCHIVE_FORMAT, type ArchiveManifest } from './archive-manifest.js';
import { isArchivedSessionPath, MANIFEST_NAME } from './archive-paths.js';
import { DEFAULT_ARCHIVE_LIMITS } from './extract-zip.js';

export interface WriteSessionZipOptions {
  sessionId: string;
  sessionDir: string;
  workDir: string;
  title: string | null;
  /** The ZIP to write (absolute). */
  output: string;
  /** `-y`: replace a file that is there. */
  overwrite: boolean;
  kimiTsVersion: string;
  /** The second lock on secrets: every file's text passes through it (the recorders redacted already). */
  redact: (text: string) => string;
}

export interface WrittenSessionZip {
  output: string;
  manifest: ArchiveManifest;
}

/**
 * Writes a session folder's archived files (`archive-paths.ts`) and a `manifest.json` (version,
 * session id, work dir, times, each file's size and sha256) into one ZIP, written to a temporary
 * file beside `output` and moved into place at the end: a crash or an error leaves no half archive.
 * Symbolic links and anything else that is not a regular file are never followed or included.
 */
export async function writeSessionZip(options: WriteSessionZipOptions): Promise<WrittenSessionZip> {
  const { output } = options;
  if (!options.overwrite && (await exists(output))) {
    throw new SessionError(`${output} exists; pass -y to replace it.`);
  }
  const files: { path: string; data: Buffer }[] = [];
  for (const path of await archivedFiles(options.sessionDir)) {
    const raw = await readRegularFile(join(options.sessionDir, ...path.split('/')), path);
    files.push({ path, data: Buffer.from(options.redact(raw.toString('utf8')), 'utf8') });
  }
  if (!files.some((file) => file.path === 'wire.jsonl')) {
    throw new SessionError(`Session ${options.sessionId} has no wire.jsonl: nothing happened in it yet.`);
  }
  const manifest: ArchiveManifest = {
    format: ARCHIVE_FORMAT,
    format_version: 1,
    kimi_ts_version: options.kimiTsVersion,
    session_id: options.sessionId,
    work_dir: options.workDir,
    title: options.title === null ? null : options.redact(options.title),
    created_at: firstRecordTime(files.find((file) => file.path === 'wire.jsonl')!.data),
    exported_at: new Date().toISOString(),
    files: files.map(({ path, data }) => ({
      path,
      size: data.length,
      sha256: createHash('sha256').update(data).digest('hex'),
    })),
  };
  const zip = new ZipFile();
  const mtime = new Date();
  zip.addBuffer(Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), MANIFEST_NAME, { mtime, mode: 0o644 });
  for (const { path, data } of files) zip.addBuffer(data, path, { mtime, mode: 0o644 });
  zip.end();
  const temp = join(dirname(output), `.${basename(output)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await pipeline(zip.outputStream, createWriteStream(temp, { flags: 'wx', mode: 0o600 }));
    await moveIntoPlace(temp, output, options.overwrite);
  } finally {
    await rm(temp, { force: true });
  }
  return { output, manifest };
}

/** The archived files of a session folder, as forward-slash paths, regular files only. */
async function archivedFiles(sessionDir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string, prefix: string, depth: number): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = prefix + entry.name;
      // withFileTypes comes from lstat: a symbolic link is neither a file nor a directory here.
      if (entry.isFile() && isArchivedSessionPath(path)) found.push(path);
      else if (entry.isDirectory() && depth < 2 && (path === 'subagents' || prefix === 'subagents/'))
        await walk(join(dir, entry.name), `${path}/`, depth + 1);
    }
  };
  await walk(sessionDir, '', 0);
  return found;
}

/**
 * A file's bytes, opened without following a link: one swapped in for the file after the listing
 * is refused instead of read (the listing already skipped links).
 */
async function readRegularFile(file: string, path: string): Promise<Buffer> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => {
    throw new SessionError(`${path} of the session cannot be read (or is a link).`);
  });
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new SessionError(`${path} of the session is not a regular file.`);
    if (info.size > DEFAULT_ARCHIVE_LIMITS.maxEntryBytes) {
      throw new SessionError(`${path} is larger than a session archive may hold.`);
    }
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** The ISO time of wire.jsonl's first timestamped record, or null. */
function firstRecordTime(wire: Buffer): string | null {
  for (const line of wire
    .subarray(0, 64 * 1024)
    .toString('utf8')
    .split('\n')
    .slice(0, 8)) {
    try {
      const record = JSON.parse(line) as { timestamp?: unknown };
      if (typeof record.timestamp === 'number') return new Date(record.timestamp * 1000).toISOString();
    } catch {
      // Not a record (or cut): look at the next line.
    }
  }
  return null;
}

/**
 * Without `overwrite`, a hard link puts the file in place only if nothing is there (atomic, no race
 * with another writer); with it, a rename replaces what is there.
 */
async function moveIntoPlace(temp: string, output: string, overwrite: boolean): Promise<void> {
  if (overwrite) return rename(temp, output);
  try {
    await link(temp, output);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new SessionError(`${output} exists; pass -y to replace it.`);
    // A file system without hard links: the check at the start has to do.
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP') return rename(temp, output);
    throw error;
  }
}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}
