import { copyFile, type FileHandle, open, readFile, truncate, writeFile } from 'node:fs/promises';
import type { Message } from '../../kosong/index.js';
import { writeAllSync } from '../../util/append-sync.js';
import type { SessionWrite, WriteFence } from '../../util/write-fence.js';
import {
  checkpointToLine,
  checkpointUserMessage,
  messageToLine,
  systemPromptToLine,
  usageToLine,
} from './context-records.js';
import {
  type CheckpointMark,
  type ContextWarning,
  type LoadedContext,
  loadContextBytes,
} from './load-context-file.js';
import { removeStaleTemporaries, replaceAtomically, rotateAndReplace } from './rotate-file.js';
import { charsToTokens, estimatedChars } from './token-estimate.js';

/**
 * The conversation history of one agent, persisted in `context.jsonl` (Kimi CLI's format).
 *
 * Durability: every change is one `write` on a descriptor opened in append mode, so a crashed
 * process leaves whole records, and at worst one torn last line that `restore` cuts off. Appends are
 * not fsynced: a step adds a few records and a 10,000-step session would pay an fsync each time,
 * while what an fsync protects against (power loss, kernel crash) is handled by restore's
 * tolerance — a lost tail only costs the last steps. The rewrites (revert, clear, legacy system
 * prompt) are flushed before their rename, since losing those would lose the whole history.
 *
 * Changes are applied one at a time, in call order, and the in-memory state changes only after the
 * file did. None of the methods take an AbortSignal on purpose: context growth must not be cut in
 * half by a cancel; each call is short.
 */
export class Context {
  private handle: FileHandle;
  private state: LoadedContext;
  private size: number;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  private redact: (<T>(value: T) => T) | null = null;
  private fence: WriteFence | null = null;

  private constructor(
    readonly file: string,
    handle: FileHandle,
    state: LoadedContext,
  ) {
    this.handle = handle;
    this.state = state;
    this.size = state.keptBytes;
  }

  /**
   * Loads `file` (created if missing) and opens it for appending. Malformed lines are skipped and
   * reported in `warnings`; a torn end (from a crash) is cut off the file so the next append starts
   * on a clean line.
   */
  static async restore(file: string): Promise<Context> {
    await removeStaleTemporaries(file);
    let bytes: Buffer;
    try {
      bytes = await readFile(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      bytes = Buffer.alloc(0);
    }
    const state = loadContextBytes(bytes);
    if (state.keptBytes < bytes.length) await truncate(file, state.keptBytes);
    const handle = await open(file, 'a');
    const context = new Context(file, handle, state);
    if (state.needsNewline) await context.writeRaw('\n');
    return context;
  }

  get history(): readonly Message[] {
    return this.state.history;
  }

  /** The system prompt frozen at session creation, or null if none was written yet. */
  get systemPrompt(): string | null {
    return this.state.systemPrompt;
  }

  /** The last API-reported count plus an estimate (chars / 4) of the messages added since. */
  get tokenCount(): number {
    return this.state.recordedTokens + this.pendingTokenEstimate;
  }

  get recordedTokenCount(): number {
    return this.state.recordedTokens;
  }

  get pendingTokenEstimate(): number {
    return charsToTokens(this.state.pendingChars);
  }

  /** How many checkpoints exist; also the id the next checkpoint gets. */
  get checkpointCount(): number {
    return this.state.nextCheckpointId;
  }

  /** The (at most two) messages right after checkpoint `id`, or null when there is no such checkpoint. */
  messagesAfterCheckpoint(id: number): readonly Message[] | null {
    const mark = this.state.checkpoints.find((m) => m.id === id);
    return mark ? this.state.history.slice(mark.historyLength, mark.historyLength + 2) : null;
  }

  /** Lines `restore` skipped or cut, with the reason. */
  get warnings(): readonly ContextWarning[] {
    return this.state.warnings;
  }

  /**
   * Writes the system prompt as the first line. On a file that already has records but no prompt
   * (a legacy file) the line is put in front, by an atomic rewrite.
   */
  writeSystemPrompt(content: string): Promise<void> {
    return this.exclusive(async () => {
      if (this.state.systemPrompt !== null) throw new Error('The context already has a system prompt');
      const line = systemPromptToLine(content);
      if (this.size === 0) {
        await this.fenced({ file: 'context', op: 'append', text: line });
        await this.writeRaw(line);
      } else {
        const whole = Buffer.concat([Buffer.from(line), await readFile(this.file)]);
        await this.fenced({ file: 'context', op: 'replace', text: whole.toString('utf8') });
        await this.reopenAfter(() =>
          replaceAtomically(this.file, async (temp) => {
            await writeFile(temp, whole);
          }),
        );
        const shift = Buffer.byteLength(line);
        this.size += shift;
        for (const mark of this.state.checkpoints) mark.offset += shift;
      }
      this.state.systemPrompt = content;
    });
  }

  /**
   * Appends messages in one write, so a step's assistant message and its tool messages reach the
   * file together or not at all (`restore` also drops a torn step).
   */
  appendMessages(messages: Message | readonly Message[]): Promise<void> {
    const given: readonly Message[] = Array.isArray(messages) ? messages : [messages as Message];
    const redact = this.redact;
    const list = redact ? given.map((message) => redact(message)) : given;
    if (list.length === 0) return this.exclusive(async () => undefined);
    return this.exclusive(async () => {
      const text = list.map(messageToLine).join('');
      await this.fenced({ file: 'context', op: 'append', text });
      await this.writeRaw(text);
      this.pushMessages(list);
    });
  }

  /** From now on, every appended message passes through `redact` (secrets out of the history). */
  redactWith(redact: <T>(value: T) => T): void {
    this.redact = redact;
  }

  /**
   * Marks a point `revertTo` can return to and returns its id. With `withUserMessage` (agents that
   * can send D-Mail) the user message `<system>CHECKPOINT N</system>` follows it, in the same write.
   */
  checkpoint(options: { withUserMessage?: boolean } = {}): Promise<number> {
    return this.exclusive(async () => {
      const id = this.state.nextCheckpointId;
      const mark: CheckpointMark = {
        id,
        offset: this.size,
        historyLength: this.state.history.length,
        recordedTokens: this.state.recordedTokens,
        pendingChars: this.state.pendingChars,
      };
      const extra = options.withUserMessage ? [checkpointUserMessage(id)] : [];
      const text = checkpointToLine(id) + extra.map(messageToLine).join('');
      await this.fenced({ file: 'context', op: 'append', text });
      await this.writeRaw(text);
      this.state.checkpoints.push(mark);
      this.state.nextCheckpointId = id + 1;
      this.pushMessages(extra);
      return id;
    });
  }

  /** Records the token count the API reported; the estimate of pending messages restarts at 0. */
  updateUsage(tokenCount: number): Promise<void> {
    if (!Number.isSafeInteger(tokenCount) || tokenCount < 0) {
      return Promise.reject(new RangeError(`Token count must be a non-negative integer, got ${tokenCount}`));
    }
    return this.exclusive(async () => {
      const text = usageToLine(tokenCount);
      await this.fenced({ file: 'context', op: 'append', text });
      await this.writeRaw(text);
      this.state.recordedTokens = tokenCount;
      this.state.pendingChars = 0;
    });
  }

  /**
   * Returns the context to just before checkpoint `id`: the current file is kept as the next
   * `context_N.jsonl` and `context.jsonl` becomes the prefix before that checkpoint. Returns the
   * path the old content was kept under (what `/rewind --redo` returns to).
   */
  revertTo(id: number): Promise<string | null> {
    return this.exclusive(async () => {
      const index = this.state.checkpoints.findIndex((mark) => mark.id === id);
      const mark = this.state.checkpoints[index];
      if (!mark) throw new RangeError(`There is no checkpoint with id ${id}`);
      if (this.fence) {
        const prefix = (await readFile(this.file)).subarray(0, mark.offset);
        await this.fenced({ file: 'context', op: 'replace', text: prefix.toString('utf8') });
      }
      let kept: string | null = null;
      await this.reopenAfter(async () => {
        kept = await rotateAndReplace(this.file, async (temp) => {
          await copyFile(this.file, temp);
          await truncate(temp, mark.offset);
        });
      });
      this.size = mark.offset;
      this.state.history.length = mark.historyLength;
      this.state.recordedTokens = mark.recordedTokens;
      this.state.pendingChars = mark.pendingChars;
      this.state.checkpoints.length = index;
      this.state.nextCheckpointId = id;
      return kept;
    });
  }

  /**
   * Makes the content of `branch` (a kept `context_N.jsonl`) the context again, atomically; the
   * current content is kept as the next rotation. Returns the path it was kept under.
   */
  replaceWith(branch: string): Promise<string | null> {
    return this.exclusive(async () => {
      const bytes = await readFile(branch);
      const loaded = loadContextBytes(bytes);
      const text = bytes.subarray(0, loaded.keptBytes).toString('utf8') + (loaded.needsNewline ? '\n' : '');
      await this.fenced({ file: 'context', op: 'replace', text });
      let kept: string | null = null;
      await this.reopenAfter(async () => {
        kept = await rotateAndReplace(this.file, (temp) => writeFile(temp, bytes));
      });
      this.state = loaded;
      this.size = this.state.keptBytes;
      if (this.state.keptBytes < bytes.length) await this.handle.truncate(this.state.keptBytes);
      if (this.state.needsNewline) await this.writeRaw('\n');
      return kept;
    });
  }

  /**
   * Empties the context (the old file is kept as the next `context_N.jsonl`). With `systemPrompt`
   * the new file starts with it, in the same atomic step, so no crash can leave a context without one.
   */
  clear(options: { systemPrompt?: string } = {}): Promise<void> {
    return this.exclusive(async () => {
      const head = options.systemPrompt === undefined ? '' : systemPromptToLine(options.systemPrompt);
      await this.fenced({ file: 'context', op: 'replace', text: head });
      await this.reopenAfter(() => rotateAndReplace(this.file, (temp) => writeFile(temp, head)));
      this.size = Buffer.byteLength(head);
      this.state = {
        systemPrompt: options.systemPrompt ?? null,
        history: [],
        checkpoints: [],
        nextCheckpointId: 0,
        recordedTokens: 0,
        pendingChars: 0,
        keptBytes: this.size,
        needsNewline: false,
        warnings: [],
      };
    });
  }

  /**
   * A check every later change must pass before it touches the file (a fleet worker's lease on the
   * session: a worker that lost it must not write after another took over). It is given the change
   * (the lines appended, or the file's new content) so it can commit it elsewhere first (the fleet's
   * session store). It throws to refuse the change, which then fails with its error and leaves the
   * file and the history as they were.
   */
  setWriteFence(fence: WriteFence | null): void {
    this.fence = fence;
  }

  /** Closes the file after pending changes are written. */
  close(): Promise<void> {
    return this.exclusive(async () => {
      this.closed = true;
      await this.handle.close();
    });
  }

  /** Asks the write fence (if any) to pass `write` before the file changes. */
  private async fenced(write: SessionWrite): Promise<void> {
    if (this.fence) await this.fence(write);
  }

  private pushMessages(messages: readonly Message[]): void {
    for (const message of messages) {
      this.state.history.push(message);
      this.state.pendingChars += estimatedChars(message);
    }
  }

  /** Runs `change` after every earlier change has finished, whatever their outcome. */
  private exclusive<T>(change: () => Promise<T>): Promise<T> {
    const run = this.queue.then(async () => {
      if (this.closed) throw new Error('The context file is closed');
      return change();
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Writes all of `data` at the end of the file. If the write fails part way (disk full), the file
   * is cut back to its previous size, so a failed change leaves no partial record behind.
   */
  private async writeRaw(data: string): Promise<void> {
    const bytes = Buffer.from(data, 'utf8');
    try {
      writeAllSync(this.handle.fd, bytes);
    } catch (error) {
      await this.handle.truncate(this.size).catch(() => undefined);
      throw error;
    }
    this.size += bytes.length;
  }

  /** Runs a replacement of the file, then points the append descriptor at the new file. */
  private async reopenAfter(replace: () => Promise<unknown>): Promise<void> {
    await replace();
    const previous = this.handle;
    try {
      this.handle = await open(this.file, 'a');
    } catch (error) {
      // The old descriptor now points at the rotated-away file: refuse further writes through it.
      this.closed = true;
      await previous.close();
      throw error;
    }
    await previous.close();
  }
}
