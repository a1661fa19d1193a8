import { createRequire } from 'node:module';

/**
 * A zlib stream (RFC 1950) whose deflate data (RFC 1951) is "stored" blocks: the bytes as they are,
 * in blocks of up to 65,535, each behind a 5-byte header, then the Adler-32 of the bytes. Every
 * inflater reads it, git's included (a loose object is any zlib stream of `<type> <size>\0<body>`).
 *
 * Why not node:zlib for a small object: the CLI's launcher changes V8's flags at start-up, so a
 * built-in first loaded after that is compiled from source; loading node:zlib for a fresh work dir's
 * first checkpoint cost ~1.5 ms, and each `deflateSync` builds a stream object (~0.3 ms in V8's
 * interpreter, which is all start-up runs). Writing a few hundred bytes as they are costs microseconds
 * and a few bytes more on disk. The Adler-32 loop runs ~25 ns a byte in the interpreter: a large
 * object is left to node:zlib (STORED_UP_TO).
 */

/** kimi-ts's own objects up to this many bytes are written as stored blocks; larger ones are deflated. */
export const STORED_UP_TO = 4096;

const BLOCK = 65_535;
const ADLER_MOD = 65_521;
/** Bytes summed between two reductions of the Adler-32 sums: zlib's NMAX, the sums stay below 2^32. */
const ADLER_RUN = 5_552;

/** The Adler-32 checksum of `data` (RFC 1950, section 8.2). */
export function adler32(data: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (let start = 0; start < data.length; start += ADLER_RUN) {
    const end = Math.min(start + ADLER_RUN, data.length);
    for (let i = start; i < end; i++) {
      a += data[i] as number;
      b += a;
    }
    a %= ADLER_MOD;
    b %= ADLER_MOD;
  }
  return ((b << 16) | a) >>> 0;
}

/** `data` as a zlib stream of stored blocks (decompresses to `data` exactly). */
export function zlibStored(data: Uint8Array): Buffer {
  const blocks = Math.max(1, Math.ceil(data.length / BLOCK));
  const out = Buffer.allocUnsafe(2 + blocks * 5 + data.length + 4);
  // CMF 0x78: deflate, 32 KiB window; FLG 0x01: no dictionary, level "fastest", (CMF·256 + FLG) % 31 == 0.
  out[0] = 0x78;
  out[1] = 0x01;
  let at = 2;
  for (let block = 0; block < blocks; block++) {
    const start = block * BLOCK;
    const length = Math.min(BLOCK, data.length - start);
    // BFINAL on the last block, BTYPE 00 (stored); then LEN and its ones' complement, little-endian.
    // Bytes set one by one: Buffer's write helpers, first called here at start-up, are compiled then.
    out[at] = block === blocks - 1 ? 1 : 0;
    out[at + 1] = length & 0xff;
    out[at + 2] = length >>> 8;
    out[at + 3] = ~length & 0xff;
    out[at + 4] = (~length >>> 8) & 0xff;
    at += 5;
    out.set(data.subarray(start, start + length), at);
    at += length;
  }
  const check = adler32(data);
  out[at] = check >>> 24;
  out[at + 1] = (check >>> 16) & 0xff;
  out[at + 2] = (check >>> 8) & 0xff;
  out[at + 3] = check & 0xff;
  return out;
}

let loadedZlib: typeof import('node:zlib') | undefined;

/**
 * zlib, loaded on the first large object written, not with the CLI.
 * A require, not `import()`: the bundle runs in a node:vm script, which has no `import()`.
 */
function zlib(): typeof import('node:zlib') {
  loadedZlib ??= createRequire(import.meta.url)('node:zlib') as typeof import('node:zlib');
  return loadedZlib;
}

/**
 * An object's data as a zlib stream for git: kimi-ts's own small trees and commits as stored blocks;
 * a file's bytes (`fileBytes`: a blob) and anything large deflated by zlib. A file of the workspace
 * may hold a credential kimi-ts does not know the format of: its bytes are not written in the clear
 * into the agent's home (a search of it for a token the person revoked finds nothing plain).
 */
export function deflateObject(data: Buffer, fileBytes: boolean): Buffer {
  return !fileBytes && data.length <= STORED_UP_TO ? zlibStored(data) : zlib().deflateSync(data);
}
