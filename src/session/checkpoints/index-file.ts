import { createHash } from 'node:crypto';
import type { BigIntStats } from 'node:fs';
import { writeAtomically } from './store-objects.js';

/** One file of a git index: its path (`/`-separated), its blob, its git mode and the stat it was read with. */
export interface IndexEntry {
  path: string;
  blob: string;
  /** 0o100644, 0o100755 or 0o120000. */
  mode: number;
  stat: BigIntStats;
}

/** The fixed part of a version 2 index entry (ctime … flags), before its path. */
const FIXED_BYTES = 62;
const NS_PER_S = 1_000_000_000n;

const u32 = (value: bigint): number => Number(value & 0xffffffffn);

/**
 * Git's index file, version 2 (git's `Documentation/gitformat-index.txt`): the header, one entry per
 * file sorted by path bytes, no extension, the SHA-1 of all of it at the end. Written where git's
 * `add` would have written it, so the session's next record (`git ls-files`, `add`, `write-tree`)
 * starts from it as from its own. Each entry keeps the stat its content was read with: git trusts a
 * matching stat, so that stat must be from before the read (the caller checks it did not change
 * during the read); an entry as new as the index file itself is re-read by git ("racily clean").
 */
export function indexFileBytes(entries: readonly IndexEntry[]): Buffer {
  const sorted = [...entries].sort((a, b) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)));
  const parts: Buffer[] = [];
  const header = Buffer.alloc(12);
  header.write('DIRC', 0, 'latin1');
  header.writeUInt32BE(2, 4);
  header.writeUInt32BE(sorted.length, 8);
  parts.push(header);
  for (const entry of sorted) {
    const path = Buffer.from(entry.path, 'utf8');
    // 1 to 8 NULs end the path, so that the entry's length is a multiple of 8.
    const length = Math.ceil((FIXED_BYTES + path.length + 1) / 8) * 8;
    const bytes = Buffer.alloc(length);
    const { stat } = entry;
    const fields = [
      stat.ctimeNs / NS_PER_S,
      stat.ctimeNs % NS_PER_S,
      stat.mtimeNs / NS_PER_S,
      stat.mtimeNs % NS_PER_S,
      stat.dev,
      stat.ino,
      BigInt(entry.mode),
      stat.uid,
      stat.gid,
      stat.size,
    ];
    fields.forEach((value, at) => {
      bytes.writeUInt32BE(u32(value), at * 4);
    });
    bytes.write(entry.blob, 40, 'hex');
    // Flags: stage 0, no extended flags, the path's length (0xfff when longer).
    bytes.writeUInt16BE(Math.min(path.length, 0xfff), 60);
    path.copy(bytes, FIXED_BYTES);
    parts.push(bytes);
  }
  const body = Buffer.concat(parts);
  return Buffer.concat([body, createHash('sha1').update(body).digest()]);
}

/** Writes the index whole or not at all (git writes `index.lock` and renames it). */
export function writeIndexFile(file: string, entries: readonly IndexEntry[]): void {
  writeAtomically(file, indexFileBytes(entries), 0o600);
}
