import { type FileHandle, mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One frame the host broadcast: an event or an agent request, as the JSON text sent. */
export interface LoggedFrame {
  kind: 'event' | 'request';
  text: string;
}

/** The default of how much of a session's log stays in memory (the rest is on disk). */
export const DEFAULT_REPLAY_MEMORY_BYTES = 4 * 1024 * 1024;

/** How much of the spill file a replay reads at once. */
const READ_CHUNK_BYTES = 1024 * 1024;

interface Entry extends LoggedFrame {
  seq: number;
}

/**
 * Every frame a session host broadcast since it opened, in order, for replays: the newest ones in
 * memory (at most `memoryBytes` of frame text, give or take the frame that crossed the line), older
 * ones spilled to a file of their own (one `e`/`r`-prefixed line per frame, in a 0700 temp folder,
 * removed on `close`). The spill file holds exactly the frames sent, so a replay is the file then the
 * memory, with nothing missing and nothing twice whatever spills while it reads. If the disk fails,
 * frames stay in memory (a replay must never miss one).
 */
export class ReplayLog {
  private readonly memory: Entry[] = [];
  private bytesInMemory = 0;
  private nextSeq = 0;
  /** Frames [0, spilledSeq) are in the file, whose first `spilledBytes` bytes hold them. */
  private spilledSeq = 0;
  private spilledBytes = 0;
  private file: Promise<string> | null = null;
  /** The spill file, open for appending while the log lives (one write per batch). */
  private writer: FileHandle | null = null;
  private writing: Promise<void> = Promise.resolve();
  private spilling = false;
  private spillFailed = false;
  private closed = false;

  constructor(private readonly memoryBytes: number = DEFAULT_REPLAY_MEMORY_BYTES) {}

  /** Bytes of frame text held in memory now. */
  get memoryUsed(): number {
    return this.bytesInMemory;
  }

  /** Resolves when no spill write is under way (a spill that starts another is waited for too). */
  async spillsSettled(): Promise<void> {
    let writing: Promise<void>;
    do {
      writing = this.writing;
      await writing;
    } while (writing !== this.writing);
  }

  /** Frames logged so far. */
  get size(): number {
    return this.nextSeq;
  }

  append(frame: LoggedFrame): void {
    this.memory.push({ ...frame, seq: this.nextSeq++ });
    this.bytesInMemory += frame.text.length;
    if (this.bytesInMemory > this.memoryBytes && !this.spilling && !this.spillFailed && !this.closed)
      this.spill();
  }

  /**
   * Sends every frame logged so far (and those logged while it reads the file) to `send`, in order;
   * returns when it has sent the last one. The end is synchronous: a caller that goes live right after
   * misses nothing logged later.
   */
  async replay(send: (frame: LoggedFrame) => void): Promise<void> {
    let seq = 0;
    let offset = 0;
    for (;;) {
      const firstInMemory = this.memory[0]?.seq ?? this.nextSeq;
      if (seq >= firstInMemory) break;
      // Frames [seq, firstInMemory) left memory, so they are in the file: read what it holds now.
      const end = this.spilledBytes;
      const sent = await this.readFile(offset, end, send);
      if (sent === 0 && end === offset) break; // cannot happen: frames leave memory once written
      seq += sent;
      offset = end;
    }
    for (const entry of this.memory) if (entry.seq >= seq) send(entry);
  }

  /** Removes the spill file (after a write in flight). */
  async close(): Promise<void> {
    this.closed = true;
    await this.writing;
    await this.writer?.close().catch(() => undefined);
    this.writer = null;
    const file = this.file;
    this.file = null;
    if (file) await rm(await file.then((path) => join(path, '..')), { recursive: true, force: true });
  }

  /** Moves the oldest frames to the file until memory is at half its budget. */
  private spill(): void {
    let take = 0;
    let bytes = 0;
    while (take < this.memory.length && this.bytesInMemory - bytes > this.memoryBytes / 2)
      bytes += this.memory[take++]!.text.length;
    const batch = this.memory.slice(0, take);
    const text = batch.map((e) => `${e.kind === 'request' ? 'r' : 'e'}${e.text}\n`).join('');
    this.spilling = true;
    this.writing = (async () => {
      try {
        this.file ??= mkdtemp(join(tmpdir(), 'kimi-ts-web-replay-')).then((dir) => join(dir, 'frames'));
        this.writer ??= await open(await this.file, 'a', 0o600);
        await this.writer.appendFile(text, 'utf8');
        // Written: the frames leave memory (they are still the oldest ones, appends go to the end).
        this.memory.splice(0, batch.length);
        this.bytesInMemory -= bytes;
        this.spilledSeq += batch.length;
        this.spilledBytes += Buffer.byteLength(text);
      } catch {
        this.spillFailed = true;
      } finally {
        this.spilling = false;
      }
      if (this.bytesInMemory > this.memoryBytes && !this.spillFailed && !this.closed) this.spill();
    })();
  }

  /** Sends the frames in bytes [from, to) of the spill file; returns how many. */
  private async readFile(from: number, to: number, send: (frame: LoggedFrame) => void): Promise<number> {
    const file = this.file;
    if (file === null || to <= from) return 0;
    const handle = await open(await file, 'r');
    let count = 0;
    try {
      let carry = Buffer.alloc(0);
      for (let position = from; position < to; ) {
        const buffer = Buffer.alloc(Math.min(READ_CHUNK_BYTES, to - position));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
        if (bytesRead === 0) break;
        position += bytesRead;
        let chunk = Buffer.concat([carry, buffer.subarray(0, bytesRead)]);
        for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10)) {
          const line = chunk.subarray(0, newline).toString('utf8');
          chunk = chunk.subarray(newline + 1);
          send({ kind: line.startsWith('r') ? 'request' : 'event', text: line.slice(1) });
          count++;
        }
        carry = Buffer.from(chunk);
      }
    } finally {
      await handle.close();
    }
    return count;
  }
}
