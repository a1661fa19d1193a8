import { type BigIntStats, constants, createReadStream, statSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { secretNameReason } from './secret-file-names.js';

let zlib: typeof import('node:zlib') | undefined;

/**
 * node:zlib, loaded at the first gzip-compressed tar listed rather than with the sandbox: this module
 * loads on every start with the sandbox on, before the first model request, and node:zlib loads
 * after the launcher's V8 flags (so compiled from source): ~1.5 ms of CPU on that path (Node 22).
 * A require, not `import()`: the bundle runs in a node:vm script, which has no `import()`.
 */
function gunzipStream(): import('node:zlib').Gunzip {
  zlib ??= createRequire(import.meta.url)('node:zlib') as typeof import('node:zlib');
  return zlib.createGunzip();
}

/**
 * Archives in the workspace whose members are secret files (`backup.tar.gz` holding the project's
 * `.env`): `tar xzOf "$(ls | grep gz)"` reads the member by a name built at run time, past every
 * check of the command's words, so the secret walk hides the archive like the file it holds.
 *
 * Members are known by their names (secret-file-names.ts), from a bounded listing: a plain tar's
 * headers are read by seeking from one to the next, a zip's central directory at its end, a
 * gzip-compressed tar decompressed up to GZIP_LIST_BYTES. An archive listed past its bound without
 * a secret name is not hidden (a dataset's tarball is no backup of `.env`). Each listing is kept
 * while the archive's device, inode, size and times are the same.
 */

/** How an archive's name says it is packed, or null when it is no archive the walk lists. */
export function archiveKind(name: string): ArchiveKind | null {
  const lower = name.toLowerCase();
  if (lower.endsWith('.tar')) return 'tar';
  if (lower.endsWith('.tar.gz') || lower.endsWith('.tgz')) return 'tar.gz';
  if (lower.endsWith('.zip')) return 'zip';
  return null;
}

export type ArchiveKind = 'tar' | 'tar.gz' | 'zip';

/** Members looked at per archive. */
const MAX_MEMBERS = 10_000;
/** Bytes of a gzip-compressed tar decompressed to list it (~50 ms of CPU). */
const GZIP_LIST_BYTES = 16 * 1024 * 1024;
/** A long name's or pax header's data read, at most. */
const MAX_NAME_DATA = 64 * 1024;
/** A zip's central directory read, at most (its entries are ~50 bytes plus the name). */
const ZIP_DIRECTORY_BYTES = 4 * 1024 * 1024;

const listings = new Map<string, string | null>();
const MAX_LISTINGS = 256;

/**
 * Why the archive at `path` is as secret as a file it holds (`holds .env, a dotenv file`), or null.
 * Not opened again while it is unchanged.
 */
export async function archiveSecretReason(path: string, kind: ArchiveKind): Promise<string | null> {
  // Unchanged since its listing (at most readings): one stat, no descriptor opened.
  const known = knownListing(path);
  if (known !== undefined) return known;
  let handle: FileHandle | undefined;
  try {
    // Non-blocking: a FIFO given an archive's name must not hold the walk.
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const info = await handle.stat({ bigint: true });
    if (!info.isFile()) return null;
    const key = listingKey(info);
    const known = listings.get(key);
    if (known !== undefined) return known;
    const member = await firstSecretMember(handle, path, kind, Number(info.size));
    const reason = member === null ? null : `holds ${member.name}, ${member.reason}`;
    listings.set(key, reason);
    if (listings.size > MAX_LISTINGS) listings.delete(listings.keys().next().value as string);
    return reason;
  } catch {
    return null;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

function knownListing(path: string): string | null | undefined {
  try {
    const info = statSync(path, { bigint: true, throwIfNoEntry: false });
    return info?.isFile() ? listings.get(listingKey(info)) : undefined;
  } catch {
    return undefined;
  }
}

function listingKey(info: BigIntStats): string {
  return `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
}

interface SecretMember {
  readonly name: string;
  readonly reason: string;
}

function secretMember(path: string): SecretMember | null {
  const name = path.replace(/\/+$/, '');
  const reason = secretNameReason(name);
  return reason === null ? null : { name: name.slice(name.lastIndexOf('/') + 1), reason };
}

async function firstSecretMember(
  handle: FileHandle,
  path: string,
  kind: ArchiveKind,
  size: number,
): Promise<SecretMember | null> {
  switch (kind) {
    case 'tar':
      return tarSecretMember(handle, size);
    case 'tar.gz':
      return gzipTarSecretMember(path);
    case 'zip':
      return zipSecretMember(handle, size);
  }
}

const BLOCK = 512;

/** A plain tar's members, header to header (the data between them is not read). */
async function tarSecretMember(handle: FileHandle, size: number): Promise<SecretMember | null> {
  const header = Buffer.alloc(BLOCK);
  const names = new TarNames();
  for (let at = 0, members = 0; at + BLOCK <= size && members < MAX_MEMBERS; members++) {
    const { bytesRead } = await handle.read(header, 0, BLOCK, at);
    if (bytesRead < BLOCK) return null;
    const entry = names.header(header);
    if (entry === 'end') return null;
    if (entry === null) return null;
    // A long name's or a pax header's data is the next member's name: read, not skipped.
    if (entry.nameData) {
      const data = Buffer.alloc(Math.min(entry.size, MAX_NAME_DATA));
      await handle.read(data, 0, data.length, at + BLOCK);
      names.nameData(entry.type, data);
    } else {
      const found = secretMember(entry.name);
      if (found) return found;
    }
    at += BLOCK + Math.ceil(entry.size / BLOCK) * BLOCK;
  }
  return null;
}

/** A gzip-compressed tar's members, from its decompressed stream up to GZIP_LIST_BYTES. */
function gzipTarSecretMember(path: string): Promise<SecretMember | null> {
  return new Promise((settle) => {
    const input = createReadStream(path);
    const gunzip = gunzipStream();
    const names = new TarNames();
    let pending: Buffer = Buffer.alloc(0);
    /** Bytes of the current member's data still to skip, or to keep (a long name). */
    let skip = 0;
    let keep: { type: string; size: number; full: number; data: Buffer[]; got: number } | null = null;
    let seen = 0;
    let members = 0;
    let done = false;
    const finish = (found: SecretMember | null) => {
      if (done) return;
      done = true;
      input.destroy();
      gunzip.destroy();
      settle(found);
    };
    gunzip.on('data', (chunk: Buffer) => {
      seen += chunk.length;
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      while (!done) {
        if (keep) {
          const take = Math.min(keep.size - keep.got, pending.length);
          keep.data.push(pending.subarray(0, take));
          keep.got += take;
          pending = pending.subarray(take);
          if (keep.got < keep.size) break;
          names.nameData(keep.type, Buffer.concat(keep.data));
          skip = Math.ceil(keep.full / BLOCK) * BLOCK - keep.size;
          keep = null;
        }
        if (skip > 0) {
          const take = Math.min(skip, pending.length);
          skip -= take;
          pending = pending.subarray(take);
          if (skip > 0) break;
        }
        if (pending.length < BLOCK) break;
        const entry = names.header(pending.subarray(0, BLOCK));
        pending = pending.subarray(BLOCK);
        if (entry === 'end' || entry === null || ++members > MAX_MEMBERS) return finish(null);
        if (entry.nameData) {
          const size = Math.min(entry.size, MAX_NAME_DATA);
          keep = { type: entry.type, size, full: entry.size, data: [], got: 0 };
        } else {
          const found = secretMember(entry.name);
          if (found) return finish(found);
          skip = Math.ceil(entry.size / BLOCK) * BLOCK;
        }
      }
      if (seen >= GZIP_LIST_BYTES) finish(null);
    });
    gunzip.on('end', () => finish(null));
    gunzip.on('error', () => finish(null));
    input.on('error', () => finish(null));
    input.pipe(gunzip);
  });
}

/** A header's member: its name, type, and the size of its data. */
interface TarEntry {
  readonly name: string;
  readonly type: string;
  readonly size: number;
  /** Its data is the next member's name (GNU long name, pax header). */
  readonly nameData: boolean;
}

/** Reads tar headers in order, with the long name a GNU or pax header gave the next one. */
class TarNames {
  private nextName: string | null = null;

  /** The member a header block describes; 'end' for the zero block; null when it is no tar header. */
  header(block: Buffer): TarEntry | 'end' | null {
    if (block.every((byte) => byte === 0)) return 'end';
    const size = Number.parseInt(text(block, 124, 12).trim() || '0', 8);
    if (!Number.isFinite(size) || size < 0) return null;
    const type = String.fromCharCode(block[156] ?? 0);
    const nameData = type === 'L' || type === 'x';
    const prefix = text(block, 257, 6).startsWith('ustar') ? text(block, 345, 155) : '';
    const own = prefix === '' ? text(block, 0, 100) : `${prefix}/${text(block, 0, 100)}`;
    const name = this.nextName ?? own;
    if (!nameData) this.nextName = null;
    return { name, type, size, nameData };
  }

  /** The data of a long-name ('L') or pax ('x') header: the next member's name. */
  nameData(type: string, data: Buffer): void {
    if (type === 'L') this.nextName = text(data, 0, data.length);
    else {
      const path = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(data.toString('utf8'));
      if (path?.[1] !== undefined) this.nextName = path[1];
    }
  }
}

/** NUL-ended text of a header field. */
function text(block: Buffer, start: number, length: number): string {
  const field = block.subarray(start, start + length);
  const end = field.indexOf(0);
  return field.toString('utf8', 0, end < 0 ? field.length : end);
}

/** A zip's members, from its central directory (found by the end record in its last 64 KiB). */
async function zipSecretMember(handle: FileHandle, size: number): Promise<SecretMember | null> {
  const tailLength = Math.min(size, 22 + 0xffff);
  const tail = Buffer.alloc(tailLength);
  await handle.read(tail, 0, tailLength, size - tailLength);
  const end = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0 || end + 22 > tail.length) return null;
  const directorySize = Math.min(tail.readUInt32LE(end + 12), ZIP_DIRECTORY_BYTES);
  const directoryAt = tail.readUInt32LE(end + 16);
  if (directoryAt + directorySize > size) return null;
  const directory = Buffer.alloc(directorySize);
  await handle.read(directory, 0, directorySize, directoryAt);
  for (let at = 0, members = 0; at + 46 <= directory.length && members < MAX_MEMBERS; members++) {
    if (directory.readUInt32LE(at) !== 0x02014b50) return null;
    const nameLength = directory.readUInt16LE(at + 28);
    const extraLength = directory.readUInt16LE(at + 30);
    const commentLength = directory.readUInt16LE(at + 32);
    const found = secretMember(directory.toString('utf8', at + 46, at + 46 + nameLength));
    if (found) return found;
    at += 46 + nameLength + extraLength + commentLength;
  }
  return null;
}
