import { randomBytes } from 'node:crypto';
import { deflateSync, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { adler32, deflateObject, zlibStored } from './zlib-stored.js';

describe('a zlib stream of stored blocks', () => {
  it.each([0, 1, 300, 65_535, 65_536, 200_000])('inflates to the same %i bytes', (size) => {
    const data = randomBytes(size);
    const stream = zlibStored(data);
    expect(inflateSync(stream).equals(data)).toBe(true);
    // Header, one 5-byte header per block of up to 65,535 bytes, the bytes, the checksum.
    expect(stream.length).toBe(2 + Math.max(1, Math.ceil(size / 65_535)) * 5 + size + 4);
  });

  it("carries zlib's own Adler-32 (which inflate checks)", () => {
    for (const size of [0, 5_552, 5_553, 100_000]) {
      // Bytes of 0xff make the sums grow fastest (the reductions matter).
      const data = Buffer.alloc(size, 0xff);
      expect(adler32(data)).toBe(deflateSync(data).readUInt32BE(deflateSync(data).length - 4));
    }
    const stream = zlibStored(Buffer.from('blob 2\0hi'));
    stream.writeUInt8(stream.readUInt8(stream.length - 1) ^ 1, stream.length - 1);
    expect(() => inflateSync(stream)).toThrow(/incorrect data check/);
  });
});

describe('deflateObject', () => {
  it("writes a file's bytes (a blob) deflated, never in the clear; a small tree or commit as stored blocks", () => {
    const blob = Buffer.from('blob 24\0token kc-oauth-secret-1\n');
    expect(deflateObject(blob, true).includes(Buffer.from('kc-oauth-secret-1'))).toBe(false);
    expect(inflateSync(deflateObject(blob, true)).equals(blob)).toBe(true);
    const commit = Buffer.from('commit 12\0tree abc\n\nx\n');
    expect(deflateObject(commit, false).equals(zlibStored(commit))).toBe(true);
  });
});
