import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readSync,
  realpathSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';

/**
 * The session's redacted copies of the workspace's files that hold a token (sandbox-token-files.ts):
 * each made in a folder of its own under the agent's cache (0700, inside the agent's home, which no
 * command sees), each file 0600, bound read-only over the file it copies. A copy is made again when
 * its file changes (the old one removed: a command that bound it keeps its mount) and the folder goes
 * when the session's sandbox is disposed.
 */
export class RedactedCopies {
  private folder: string | undefined;
  private made = 0;
  /** The copy made of each file, by the file's path. */
  private readonly copies = new Map<string, string>();

  constructor(private readonly cacheDir: string) {}

  /**
   * A copy of `path` that is `head` and then the bytes of `source` (an open descriptor) from
   * `head.length` to `size`;
   * it replaces the file's copy made before. Null when it could not be made (the file is then hidden
   * whole by the caller).
   */
  make(path: string, head: Buffer, source: number, size: number): string | null {
    let copy: string | undefined;
    let out: number | undefined;
    try {
      copy = join(this.folderNow(), `${++this.made}`);
      out = openSync(copy, 'wx', 0o600);
      writeSync(out, head, 0, head.length, 0);
      const chunk = Buffer.allocUnsafe(Math.min(COPY_CHUNK_BYTES, Math.max(0, size - head.length)));
      for (let at = head.length; at < size; ) {
        const bytesRead = readSync(source, chunk, 0, Math.min(chunk.length, size - at), at);
        if (bytesRead === 0) break;
        writeSync(out, chunk, 0, bytesRead, at);
        at += bytesRead;
      }
    } catch {
      if (out !== undefined) closeSync(out);
      if (copy !== undefined) rmSync(copy, { force: true });
      return null;
    }
    closeSync(out);
    this.replace(path, copy);
    return copy;
  }

  /** The copy of `path` made last, if any. */
  of(path: string): string | undefined {
    return this.copies.get(path);
  }

  /** Removes the copy of `path` (gone, or no longer holding a token). */
  remove(path: string): void {
    const copy = this.copies.get(path);
    if (copy === undefined) return;
    this.copies.delete(path);
    rmSync(copy, { force: true });
  }

  /** Removes every copy and the folder (the session's sandbox is done). */
  dispose(): void {
    this.copies.clear();
    if (this.folder !== undefined) rmSync(this.folder, { recursive: true, force: true });
    this.folder = undefined;
  }

  private replace(path: string, copy: string): void {
    const before = this.copies.get(path);
    this.copies.set(path, copy);
    if (before !== undefined) rmSync(before, { force: true });
  }

  /**
   * The folder, made on first use: a real path (a bind source is checked to be its own real path,
   * sandbox-bind-fds.ts), private to this session.
   */
  private folderNow(): string {
    if (this.folder === undefined) {
      mkdirSync(this.cacheDir, { recursive: true });
      this.folder = realpathSync(mkdtempSync(join(this.cacheDir, 'redacted-copies-')));
    }
    return this.folder;
  }
}

const COPY_CHUNK_BYTES = 1024 * 1024;
