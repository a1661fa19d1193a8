import { type BigIntStats, constants, createReadStream, statSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { childProcess } from '../util/child-process.js';
import { withTrustedPath } from '../util/path-entries.js';
import {
  BLOCK,
  MAX_MEMBERS,
  MAX_NAME_DATA,
  type SecretMember,
  secretMember,
  TarNames,
  tarStreamSecretMember,
} from './tar-members.js';

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
 * compressed tar decompressed up to LIST_BYTES: gzip by Node's zlib; bzip2, xz and zstd by the
 * system's `bzip2`, `xz` and `zstd` (Node's zlib has none of them on Node 20; where the program is
 * missing the archive is not listed). An archive listed past its bound without a secret name is not
 * hidden (a dataset's tarball is no backup of `.env`). Each listing is kept while the archive's
 * device, inode, size and times are the same. A `.7z` is not listed: its header is itself
 * LZMA-packed, and no 7-Zip is on the machine.
 */

/** How an archive's name says it is packed, or null when it is no archive the walk lists. */
export function archiveKind(name: string): ArchiveKind | null {
  const lower = name.toLowerCase();
  if (lower.endsWith('.tar')) return 'tar';
  if (lower.endsWith('.tar.gz') || lower.endsWith('.tgz')) return 'tar.gz';
  if (lower.endsWith('.zip')) return 'zip';
  if (lower.endsWith('.tar.bz2') || lower.endsWith('.tbz2') || lower.endsWith('.tbz')) return 'tar.bz2';
  if (lower.endsWith('.tar.xz') || lower.endsWith('.txz')) return 'tar.xz';
  if (lower.endsWith('.tar.zst') || lower.endsWith('.tzst')) return 'tar.zst';
  return null;
}

export type ArchiveKind = 'tar' | 'tar.gz' | 'zip' | 'tar.bz2' | 'tar.xz' | 'tar.zst';

/** The system's decompressor of each kind Node's zlib lacks, and its arguments (to standard output). */
const DECOMPRESSORS = {
  'tar.bz2': ['bzip2', '-dc'],
  'tar.xz': ['xz', '-dc'],
  'tar.zst': ['zstd', '-dcq'],
} as const;

/** Bytes of a compressed tar decompressed to list it (~50 ms of CPU for gzip). */
const LIST_BYTES = 16 * 1024 * 1024;
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
    case 'tar.bz2':
    case 'tar.xz':
    case 'tar.zst':
      return decompressedTarSecretMember(path, DECOMPRESSORS[kind]);
    case 'zip':
      return zipSecretMember(handle, size);
  }
}

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

/** A gzip-compressed tar's members, decompressed by zlib. */
function gzipTarSecretMember(path: string): Promise<SecretMember | null> {
  const input = createReadStream(path);
  const gunzip = gunzipStream();
  input.on('error', () => gunzip.destroy());
  input.pipe(gunzip);
  return tarStreamSecretMember(gunzip, LIST_BYTES, () => input.destroy());
}

/**
 * A tar compressed so zlib cannot read, decompressed by the system's program (no shell; the file
 * as its argument). It is killed once the answer is known or the bound is reached: none is left
 * running. A missing program lists nothing.
 */
function decompressedTarSecretMember(
  path: string,
  [program, ...args]: readonly string[],
): Promise<SecretMember | null> {
  // Looked up on the trusted PATH: a work tree's `node_modules/.bin/xz` (first on PATH under `npx
  // kimi-ts`) would otherwise run here, outside any sandbox.
  const child = childProcess().spawn(program!, [...args, '--', path], {
    stdio: ['ignore', 'pipe', 'ignore'],
    env: withTrustedPath(process.env),
  });
  child.on('error', (error) => child.stdout.destroy(error));
  return tarStreamSecretMember(child.stdout, LIST_BYTES, () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
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
