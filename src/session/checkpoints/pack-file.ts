import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { type ObjectType, writeAtomically } from './store-objects.js';
import { deflateObject } from './zlib-stored.js';

/**
 * A pack of whole objects (no deltas) and its index, in git's formats (`Documentation/gitformat-
 * pack.txt`: pack version 2, index version 2), written into the store's `objects/pack/`. A first
 * record of a folder written as loose objects made one fan-out folder and one file per object (each
 * ~0.2 ms of the file system's CPU); a pack is two files whatever the count.
 */

export interface PackObject {
  /** The object's id: SHA-1 of `<type> <size>\0<body>`. */
  id: string;
  type: ObjectType;
  body: Buffer;
}

const TYPE_CODE: Record<ObjectType, number> = { commit: 1, tree: 2, blob: 3 };

let crcTable: Uint32Array | undefined;

/** CRC-32 (the one of zlib and PNG), which the index holds for each packed object; `previous` continues one. */
export function crc32(data: Uint8Array, previous = 0): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = (previous ^ 0xffffffff) >>> 0;
  for (let i = 0; i < data.length; i++)
    crc = (crcTable[(crc ^ (data[i] as number)) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** An entry's header: its type and its size, 4 bits then 7 bits a byte, low bits first. */
function entryHeader(type: ObjectType, size: number): Uint8Array {
  const bytes: number[] = [];
  let byte = (TYPE_CODE[type] << 4) | (size & 0x0f);
  let rest = Math.floor(size / 16);
  while (rest > 0) {
    bytes.push(byte | 0x80);
    byte = rest & 0x7f;
    rest = Math.floor(rest / 128);
  }
  bytes.push(byte);
  return Uint8Array.from(bytes);
}

/**
 * Writes `value` big-endian at `at`, byte by byte: Buffer's write helpers, first called here in
 * the start-up interpreter, would be compiled then.
 */
function putU32(out: Uint8Array, at: number, value: number): void {
  out[at] = value >>> 24;
  out[at + 1] = (value >>> 16) & 0xff;
  out[at + 2] = (value >>> 8) & 0xff;
  out[at + 3] = value & 0xff;
}

/** The pack's bytes and its index's, for `objects` (distinct ids; under 2 GiB in all). */
export function packBytes(objects: readonly PackObject[]): { pack: Buffer; index: Buffer; name: string } {
  const header = new Uint8Array(12);
  header.set([0x50, 0x41, 0x43, 0x4b]); // PACK
  putU32(header, 4, 2);
  putU32(header, 8, objects.length);
  const parts: Uint8Array[] = [header];
  let offset = 12;
  const placed: { id: string; offset: number; crc: number }[] = [];
  for (const object of objects) {
    const head = entryHeader(object.type, object.body.length);
    const data = deflateObject(object.body, object.type === 'blob');
    placed.push({ id: object.id, offset, crc: crc32(data, crc32(head)) });
    parts.push(head, data);
    offset += head.length + data.length;
  }
  const body = Buffer.concat(parts);
  const checksum = createHash('sha1').update(body).digest();
  const pack = Buffer.concat([body, checksum]);

  placed.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const count = placed.length;
  // Magic and version, the fan-out, the ids, their CRCs and offsets, the pack's checksum, its own.
  const index = Buffer.alloc(8 + 256 * 4 + count * (20 + 4 + 4) + 20 + 20);
  index.set([0xff, 0x74, 0x4f, 0x63]);
  putU32(index, 4, 2);
  // Fan-out: entry `b` counts the objects whose first byte is at most `b`.
  let upTo = 0;
  for (let byte = 0; byte < 256; byte++) {
    while (upTo < count && Number.parseInt((placed[upTo] as { id: string }).id.slice(0, 2), 16) <= byte)
      upTo++;
    putU32(index, 8 + byte * 4, upTo);
  }
  const ids = 8 + 256 * 4;
  const crcs = ids + count * 20;
  const offsets = crcs + count * 4;
  placed.forEach((entry, i) => {
    index.write(entry.id, ids + i * 20, 'hex');
    putU32(index, crcs + i * 4, entry.crc);
    putU32(index, offsets + i * 4, entry.offset);
  });
  const end = offsets + count * 4;
  checksum.copy(index, end);
  createHash('sha1')
    .update(index.subarray(0, end + 20))
    .digest()
    .copy(index, end + 20);
  return { pack, index, name: `pack-${checksum.toString('hex')}` };
}

/**
 * Writes `objects` as one pack into the store. The pack first, then its index: git looks for packs
 * by their index files, so a reader sees the pack whole or not at all.
 */
export function writePack(gitDir: string, objects: readonly PackObject[]): void {
  const { pack, index, name } = packBytes(objects);
  const folder = join(gitDir, 'objects', 'pack');
  // Read-only, as git's own packs.
  writeAtomically(join(folder, `${name}.pack`), pack, 0o444);
  writeAtomically(join(folder, `${name}.idx`), index, 0o444);
}
