import type { FileHandle } from 'node:fs/promises';
import { writeAllSync } from '../util/append-sync.js';
import type { WriteFence } from '../util/write-fence.js';
import type { WireSubscription } from './subscription.js';
import { openWireFileForAppend, recordLine } from './wire-file.js';

/**
 * Appends every merged message to wire.jsonl. Whatever queued up before the recorder woke (all
 * that was sent in the same tick, or while a write fence was asked) goes out as one write, so a
 * fast stream costs few system calls; the write itself is synchronous (src/util/append-sync.ts). The file is opened on the
 * first message (an empty run leaves no file), gets the header line if it is new or empty, and is
 * closed when the subscription ends. After a failure the recorder reports it once (to `onError`, or
 * as a process warning) and drains without writing, so memory stays bounded.
 */
export class WireRecorder {
  /** Settles when everything has been written (or recording failed) and the file is closed. */
  readonly done: Promise<void>;
  private handle: FileHandle | null = null;
  private failed = false;

  constructor(
    readonly path: string,
    private readonly subscription: WireSubscription,
    private readonly onError: ((error: unknown) => void) | undefined,
    private readonly fence?: WriteFence | undefined,
  ) {
    this.done = this.run();
  }

  private async run(): Promise<void> {
    try {
      while (await this.subscription.waitForMessages()) {
        const batch = this.subscription.takeAll();
        if (this.failed) continue;
        try {
          const timestamp = Date.now() / 1000;
          let text = '';
          // Live tool output is for the screen: the ToolResult that follows holds what is kept.
          for (const message of batch)
            if (message.type !== 'ToolOutput') text += recordLine(message, timestamp);
          await this.write(text);
        } catch (error) {
          this.failed = true;
          this.report(error);
        }
      }
    } finally {
      await this.handle?.close().catch(() => undefined);
      this.handle = null;
    }
  }

  private report(error: unknown): void {
    if (this.onError) {
      this.onError(error);
      return;
    }
    const reason = error instanceof Error ? error.message : String(error);
    process.emitWarning(`Recording the wire to ${this.path} failed and stopped: ${reason}`);
  }

  private async write(text: string): Promise<void> {
    let handle = this.handle;
    if (handle === null) {
      const opened = await openWireFileForAppend(this.path);
      handle = this.handle = opened.handle;
      text = opened.prefix + text;
    }
    // A writer that may no longer write (a fleet worker that lost its lease) stops here; the fence
    // sees the bytes that go to the file (the header too), so a mirror of it is the same file.
    if (this.fence) await this.fence({ file: 'wire', op: 'append', text });
    writeAllSync(handle.fd, Buffer.from(text, 'utf8'));
  }
}
