import type { APIConnectionError } from '../../errors.js';
import type { ProviderPart, StreamedPart } from '../../message.js';
import type { StreamedMessage } from '../../provider.js';

/** Where a cut stream breaks, relative to what the real stream says. */
export type CutPoint =
  | { kind: 'after_parts'; parts: number }
  /** Once the text before the first other part has gone through. */
  | { kind: 'after_text' }
  /** Once the first tool call is complete: just before the part after its last argument fragment. */
  | { kind: 'after_call' }
  /** In the middle of the first tool call's arguments: half of them go through. */
  | { kind: 'mid_arguments' };

/**
 * Lets the real stream through up to `point`, then drops the "connection" with `fail(passed)`. A
 * stream that ends before its cut point is cut at its end all the same (it never ends cleanly).
 * Leaving the loop early closes the wrapped stream, which releases its connection.
 */
export function cutStream(
  stream: StreamedMessage,
  point: CutPoint,
  fail: (passed: number) => APIConnectionError,
): StreamedMessage {
  async function* play(): AsyncGenerator<ProviderPart> {
    let passed = 0;
    let inCall = false;
    for await (const part of stream) {
      switch (point.kind) {
        case 'after_parts':
          break;
        case 'after_text':
          if (part.type !== 'text' && part.type !== 'think') throw fail(passed);
          break;
        case 'after_call':
          if (inCall && part.type !== 'tool_call_part' && part.type !== 'tool_call_end') throw fail(passed);
          if (part.type === 'function') inCall = true;
          break;
        case 'mid_arguments':
          if (part.type === 'function') {
            yield halfCall(part);
            throw fail(passed + 1);
          }
          break;
      }
      yield part;
      passed += 1;
      if (point.kind === 'after_parts' && passed >= point.parts) break;
    }
    throw fail(passed);
  }
  return {
    get id() {
      return stream.id;
    },
    get usage() {
      return stream.usage;
    },
    [Symbol.asyncIterator]: play,
  };
}

/**
 * Lets `parts` parts of the real stream through, then goes silent until the request is aborted (by
 * the caller or a stall watchdog): a server that stopped answering without closing the connection.
 */
export function stallStream(
  stream: StreamedMessage,
  parts: number,
  signal: AbortSignal | undefined,
): StreamedMessage {
  async function* play(): AsyncGenerator<ProviderPart> {
    let passed = 0;
    for await (const part of stream) {
      if (passed >= parts) break;
      yield part;
      passed += 1;
    }
    await new Promise<never>((_, reject) => {
      const abort = (): void => reject(signal?.reason ?? new Error('aborted'));
      if (signal?.aborted) abort();
      else signal?.addEventListener('abort', abort, { once: true });
    });
  }
  return {
    get id() {
      return stream.id;
    },
    get usage() {
      return stream.usage;
    },
    [Symbol.asyncIterator]: play,
  };
}

function halfCall(call: Extract<StreamedPart, { type: 'function' }>): StreamedPart {
  const args = call.function.arguments ?? '';
  return { ...call, function: { ...call.function, arguments: args.slice(0, Math.floor(args.length / 2)) } };
}
