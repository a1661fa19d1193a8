import type { Readable } from 'node:stream';
import { secretNameReason } from './secret-file-names.js';

/**
 * A tar's members as the secret walk lists them (archive-secret-members.ts): header blocks read in
 * order, with the long names GNU and pax headers give the next member; a member is secret by its
 * name (secret-file-names.ts).
 */

export const BLOCK = 512;
/** Members looked at per archive. */
export const MAX_MEMBERS = 10_000;
/** A long name's or pax header's data read, at most. */
export const MAX_NAME_DATA = 64 * 1024;

export interface SecretMember {
  readonly name: string;
  readonly reason: string;
}

export function secretMember(path: string): SecretMember | null {
  const name = path.replace(/\/+$/, '');
  const reason = secretNameReason(name);
  return reason === null ? null : { name: name.slice(name.lastIndexOf('/') + 1), reason };
}

/**
 * A compressed tar's members, from its decompressed stream (`output`) up to `limit` bytes; `close`
 * ends what makes the stream (the file read, the decompressor) once the answer is known.
 */
export function tarStreamSecretMember(
  output: Readable,
  limit: number,
  close: () => void,
): Promise<SecretMember | null> {
  return new Promise((settle) => {
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
      output.destroy();
      close();
      settle(found);
    };
    output.on('data', (chunk: Buffer) => {
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
      if (seen >= limit) finish(null);
    });
    output.on('end', () => finish(null));
    output.on('error', () => finish(null));
    // Destroyed before its end (its maker failed): nothing more comes.
    output.on('close', () => finish(null));
  });
}

/** A header's member: its name, type, and the size of its data. */
export interface TarEntry {
  readonly name: string;
  readonly type: string;
  readonly size: number;
  /** Its data is the next member's name (GNU long name, pax header). */
  readonly nameData: boolean;
}

/** Reads tar headers in order, with the long name a GNU or pax header gave the next one. */
export class TarNames {
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
