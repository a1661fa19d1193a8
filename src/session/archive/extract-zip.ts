import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as yauzl from 'yauzl';
import { isArchivedSessionPath, MANIFEST_NAME, shownEntryName, unsafeEntryName } from './archive-paths.js';

/** How much an archive may unpack to: a zip bomb stops at these, while it inflates. */
export interface ArchiveLimits {
  maxEntries: number;
  maxEntryBytes: number;
  maxTotalBytes: number;
}

export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  maxEntries: 10_000,
  maxEntryBytes: 512 * 1024 * 1024,
  maxTotalBytes: 1024 * 1024 * 1024,
};

/** The archive cannot be imported; the message says why and is safe to show (no raw entry names). */
export class ArchiveError extends Error {
  override name = 'ArchiveError';
}

export interface ExtractedFile {
  size: number;
  sha256: string;
}

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;

/**
 * Unpacks the session files of the ZIP at `zipPath` into the empty folder `into`. Every entry name
 * is checked before anything is written (`..`, absolute, backslashes, control characters refuse the
 * whole archive), as are its type (links and devices refuse it) and duplicates. Only the files a
 * session archive carries are written; other plain entries are skipped. The declared sizes are
 * checked against `limits` first, and the bytes are counted again while they inflate (yauzl also
 * fails a stream that outgrows its declared size), so a bomb stops within a chunk of the limit.
 * Returns the size and sha256 of each file written, by path.
 */
export async function extractSessionZip(
  zipPath: string,
  into: string,
  options: { limits?: ArchiveLimits | undefined; signal?: AbortSignal | undefined } = {},
): Promise<Map<string, ExtractedFile>> {
  const limits = options.limits ?? DEFAULT_ARCHIVE_LIMITS;
  const zip = await yauzl
    .openPromise(zipPath, {
      lazyEntries: true,
      autoClose: false,
      decodeStrings: true,
      validateEntrySizes: true,
      strictFileNames: true,
    })
    .catch((error: unknown) => {
      throw new ArchiveError(`This is not a readable ZIP archive (${zipReason(error)}).`);
    });
  try {
    if (zip.entryCount > limits.maxEntries) {
      throw new ArchiveError(
        `The archive has ${zip.entryCount} entries; at most ${limits.maxEntries} are read.`,
      );
    }
    const written = new Map<string, ExtractedFile>();
    const seen = new Set<string>();
    let total = 0;
    const entries = zip.eachEntry();
    while (true) {
      options.signal?.throwIfAborted();
      const next = await entries.next().catch((error: unknown) => {
        throw new ArchiveError(`The archive is damaged or unsafe (${zipReason(error)}).`);
      });
      if (next.done) break;
      const entry = next.value;
      const name = entry.fileName;
      const unsafe = unsafeEntryName(name);
      if (unsafe) throw new ArchiveError(`Refused: entry ${shownEntryName(name)} has ${unsafe}.`);
      if (seen.has(name)) throw new ArchiveError(`Refused: entry ${shownEntryName(name)} appears twice.`);
      seen.add(name);
      const type = (entry.externalFileAttributes >>> 16) & S_IFMT;
      const isDirectory = name.endsWith('/') || type === S_IFDIR;
      // Unix attributes are optional (0 from many zippers); when given, only plain files and folders pass.
      if (type !== 0 && type !== S_IFREG && type !== S_IFDIR) {
        throw new ArchiveError(`Refused: entry ${shownEntryName(name)} is a link or a special file.`);
      }
      if (isDirectory || !(name === MANIFEST_NAME || isArchivedSessionPath(name))) continue;
      if (entry.isEncrypted()) throw new ArchiveError(`Entry ${shownEntryName(name)} is encrypted.`);
      if (entry.uncompressedSize > limits.maxEntryBytes) {
        throw new ArchiveError(
          `Entry ${shownEntryName(name)} unpacks to more than ${bytes(limits.maxEntryBytes)}.`,
        );
      }
      if (total + entry.uncompressedSize > limits.maxTotalBytes) {
        throw new ArchiveError(`The archive unpacks to more than ${bytes(limits.maxTotalBytes)}.`);
      }
      const file = join(into, ...name.split('/'));
      await mkdir(dirname(file), { recursive: true });
      const digest = createHash('sha256');
      let size = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          size += chunk.length;
          total += chunk.length;
          if (size > limits.maxEntryBytes) {
            return done(
              new ArchiveError(
                `Entry ${shownEntryName(name)} unpacks to more than ${bytes(limits.maxEntryBytes)}.`,
              ),
            );
          }
          if (total > limits.maxTotalBytes) {
            return done(new ArchiveError(`The archive unpacks to more than ${bytes(limits.maxTotalBytes)}.`));
          }
          digest.update(chunk);
          done(null, chunk);
        },
      });
      const input = await zip.openReadStreamPromise(entry).catch((error: unknown) => {
        throw new ArchiveError(`Entry ${shownEntryName(name)} cannot be read (${zipReason(error)}).`);
      });
      // 'wx': the folder is new and every name is checked, so nothing can be there to follow or replace.
      await pipeline(input, counter, createWriteStream(file, { flags: 'wx', mode: 0o600 }), {
        signal: options.signal,
      }).catch((error: unknown) => {
        if (error instanceof ArchiveError || options.signal?.aborted) throw error;
        throw new ArchiveError(`Entry ${shownEntryName(name)} is damaged (${zipReason(error)}).`);
      });
      written.set(name, { size, sha256: digest.digest('hex') });
    }
    return written;
  } finally {
    zip.close();
  }
}

/** yauzl's reason, without the entry names it may quote (they can hold anything). */
function zipReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const reason = message.split(':')[0]!.trim();
  return reason.length > 0 && reason.length <= 80 ? reason : 'unreadable';
}

function bytes(n: number): string {
  return n >= 1024 * 1024 ? `${Math.round(n / (1024 * 1024))} MiB` : `${n} bytes`;
}
