import type { Readable, Writable } from 'node:stream';
import {
  ErrorCodes,
  errorFrame,
  frameText,
  type InboundMessage,
  parseInboundLine,
} from '../common/wire-protocol/jsonrpc.js';
import type { OutboundFrame, WireTransport } from '../common/wire-protocol/transport.js';
import { LineSplitter, MAX_LINE_BYTES } from './line-splitter.js';
import { LineWriter } from './line-writer.js';

export interface StdioTransportOptions {
  /** JSON-RPC messages from the client, one JSON object per line. */
  input: Readable;
  /** Where messages to the client go, one JSON object per line. */
  output: Writable;
  /** Aborting it ends the input as if the client had closed it. */
  signal?: AbortSignal | undefined;
  /** The longest line accepted (default 100 MiB). */
  maxLineBytes?: number | undefined;
}

/** Wire mode over a pair of byte streams (normally stdio): one message per line each way. */
export class StdioTransport implements WireTransport {
  private readonly writer: LineWriter;
  private stopReading: (exitCode: number) => void = () => {};

  constructor(private readonly options: StdioTransportOptions) {
    // A client that stopped reading is gone: stop as if it had closed its input.
    this.writer = new LineWriter(options.output, () => this.stopReading(0));
  }

  get failed(): boolean {
    return this.writer.failed;
  }

  send(frames: readonly OutboundFrame[]): void {
    let text = '';
    for (const frame of frames) text += `${frameText(frame)}\n`;
    this.writer.write(text);
  }

  flush(): Promise<void> {
    return this.writer.flush();
  }

  close(): void {
    this.writer.detach();
  }

  receive(onMessage: (message: InboundMessage) => void): Promise<number> {
    const { input, signal } = this.options;
    const limit = this.options.maxLineBytes ?? MAX_LINE_BYTES;
    const splitter = new LineSplitter(
      {
        onLine: (line) => {
          if (line.trim() !== '') onMessage(parseInboundLine(line));
        },
        onOverflow: () =>
          this.send([
            errorFrame(null, {
              code: ErrorCodes.PARSE_ERROR,
              message: `Parse error: a line longer than ${limit} bytes was skipped.`,
            }),
          ]),
      },
      limit,
    );
    return new Promise<number>((resolve) => {
      const onData = (chunk: Buffer | string): void => splitter.push(chunk);
      const onEnd = (): void => {
        splitter.end();
        finish(0);
      };
      const onClose = (): void => finish(0);
      const onError = (): void => finish(1);
      const onAbort = (): void => finish(0);
      const finish = (code: number): void => {
        input.off('data', onData);
        input.off('end', onEnd);
        input.off('close', onClose);
        input.off('error', onError);
        signal?.removeEventListener('abort', onAbort);
        this.stopReading = () => {};
        input.pause();
        resolve(code);
      };
      this.stopReading = finish;
      if (signal?.aborted || input.readableEnded || input.destroyed) return finish(0);
      signal?.addEventListener('abort', onAbort, { once: true });
      input.on('data', onData);
      input.once('end', onEnd);
      input.once('close', onClose);
      input.once('error', onError);
    });
  }
}
