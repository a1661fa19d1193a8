import { once } from 'node:events';
import { createConnection, createServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { APITimeoutError } from './errors.js';
import { generate } from './generate.js';
import type { StreamedPart } from './message.js';
import type { ChatProvider, GenerateRequest } from './provider.js';
import { StallWatchdog } from './stall-watchdog.js';

/** Streams `parts` with `gapMs` between them, then stays silent until the request is aborted. */
function silentProvider(parts: StreamedPart[], gapMs: number, opened: GenerateRequest[] = []): ChatProvider {
  const untilAborted = (signal: AbortSignal | undefined) =>
    new Promise<never>((_, reject) => {
      if (signal?.aborted) reject(signal.reason);
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  return {
    name: 'silent',
    modelName: 'silent',
    thinkingEffort: null,
    withThinking() {
      return this;
    },
    async generate(request) {
      opened.push(request);
      return {
        id: null,
        usage: null,
        async *[Symbol.asyncIterator]() {
          for (const part of parts) {
            await new Promise((resolve) => setTimeout(resolve, gapMs));
            yield part;
          }
          await untilAborted(request.signal);
        },
      };
    },
  };
}

describe('stall watchdog', () => {
  it('abandons a silent call with a timeout error, reporting the wait on the way', async () => {
    const waits: number[] = [];
    const opened: GenerateRequest[] = [];
    const error = await generate(silentProvider([], 0, opened), '', [], [], {
      stall: { timeoutMs: 200, progressEveryMs: 50, onWaiting: (ms) => waits.push(ms) },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APITimeoutError);
    expect((error as Error).message).toBe('The model sent nothing for 0.2 s; the request was abandoned.');
    // Reports are multiples of the interval, in order (a busy event loop may merge two into one).
    expect(waits.length).toBeGreaterThan(0);
    expect(waits.every((ms, i) => ms % 50 === 0 && ms < 200 && (i === 0 || ms > waits[i - 1]!))).toBe(true);
    expect(opened[0]?.signal?.aborted).toBe(true);
  });

  it('counts silence from the last part, not from the start', async () => {
    const parts: StreamedPart[] = Array.from({ length: 8 }, (_, i) => ({ type: 'text', text: `${i}` }));
    let seen = 0;
    const error = await generate(silentProvider(parts, 50), '', [], [], {
      stall: { timeoutMs: 300 },
      onMessagePart: () => seen++,
    }).catch((e: unknown) => e);
    // 8 parts 50 ms apart outlast the 300 ms timeout; only the silence after the last one counts.
    expect(error).toBeInstanceOf(APITimeoutError);
    expect(seen).toBe(8);
  });

  it('counts a stream of empty parts as silence (a server keeping the turn open with nothing)', async () => {
    const parts: StreamedPart[] = Array.from({ length: 50 }, () => ({ type: 'text', text: '' }));
    let seen = 0;
    const error = await generate(silentProvider(parts, 20), '', [], [], {
      stall: { timeoutMs: 200 },
      onMessagePart: () => seen++,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APITimeoutError);
    // Abandoned while the empty parts still came (50 of them take a second at least).
    expect(seen).toBeLessThan(50);
  });

  it('leaves a call that answers in time alone', async () => {
    const provider: ChatProvider = {
      ...silentProvider([], 0),
      async generate() {
        return {
          id: 'x',
          usage: null,
          async *[Symbol.asyncIterator]() {
            yield { type: 'text', text: 'quick' } as StreamedPart;
          },
        };
      },
    };
    const result = await generate(provider, '', [], [], { stall: { timeoutMs: 50 } });
    expect(result.message.content).toEqual([{ type: 'text', text: 'quick' }]);
  });
});

describe('a starved process', () => {
  it('reads what arrived while it was starved before it calls a stall', async () => {
    const server = createServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const address = server.address() as { port: number };
    const client = createConnection(address.port, '127.0.0.1');
    const [serverSide] = (await once(server, 'connection')) as [Socket];
    await once(client, 'connect');
    const watchdog = new StallWatchdog({ timeoutMs: 50 });
    serverSide.on('data', () => watchdog.touch());
    try {
      // The model's bytes are in the socket; then the event loop is held past the timeout (what a
      // loaded machine does to a process), so the timer and the bytes are due at the same turn.
      client.write('part');
      const until = performance.now() + 150;
      while (performance.now() < until) {
        // busy: nothing else runs
      }
      await once(serverSide, 'data');
      await new Promise((resolve) => setImmediate(resolve));
      expect(watchdog.stalled).toBe(false);
      expect(watchdog.signal.aborted).toBe(false);
    } finally {
      watchdog.stop();
      client.destroy();
      serverSide.destroy();
      server.close();
    }
  });
});
