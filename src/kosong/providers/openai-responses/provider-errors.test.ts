import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorResponder, gate, LoopbackServer, startSSE } from '../../../../test/support/loopback-server.js';
import {
  APIConnectionError,
  APIStatusError,
  APITimeoutError,
  ChatProviderError,
  isAbortError,
} from '../../errors.js';
import { generate } from '../../generate.js';
import { message } from '../../message.js';
import type { ProviderOptions } from '../options.js';
import { OpenAIResponsesProvider } from './provider.js';
import { ev, REQUEST_ID, responsesStream, writeResponsesEvents } from './test-support/responses-sse.js';

const API_KEY = 'sk-test-secret-key-5678';

let server: LoopbackServer;
beforeEach(async () => {
  server = await LoopbackServer.start();
});
afterEach(async () => {
  await server.close();
});

function provider(extra: Partial<ProviderOptions> = {}): OpenAIResponsesProvider {
  return new OpenAIResponsesProvider({
    model: 'gpt-test',
    baseUrl: `${server.url}/v1`,
    apiKey: API_KEY,
    ...extra,
  });
}

const run = (p: OpenAIResponsesProvider, signal?: AbortSignal) =>
  generate(p, '', [], [message('user', 'hi')], { signal });

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail');
}

describe('OpenAIResponsesProvider errors', () => {
  it.each<{ status: number; headers: Record<string, string>; retryAfterMs: number | null }>([
    { status: 401, headers: {}, retryAfterMs: null },
    { status: 429, headers: { 'retry-after': '7' }, retryAfterMs: 7000 },
    { status: 500, headers: {}, retryAfterMs: null },
  ])('maps HTTP $status to APIStatusError with status, request id and retry-after', async (row) => {
    server.enqueue(
      errorResponder(
        row.status,
        { error: { message: `rejected key ${API_KEY}`, type: 'invalid_request_error', code: null } },
        { 'x-request-id': REQUEST_ID, ...row.headers },
      ),
    );
    const error = await failure(run(provider()));
    expect(error).toBeInstanceOf(APIStatusError);
    const status = error as APIStatusError;
    expect(status.statusCode).toBe(row.status);
    expect(status.requestId).toBe(REQUEST_ID);
    expect(status.retryAfterMs).toBe(row.retryAfterMs);
    expect(status.message).toContain('rejected key');
    expect(status.message).not.toContain(API_KEY);
    expect(server.requests).toHaveLength(1); // the SDK does not retry on its own
  });

  it('maps a connection dropped mid-stream to APIConnectionError', async () => {
    const received = gate();
    server.enqueue(async (_req, res) => {
      startSSE(res);
      writeResponsesEvents(res, [ev.created(), ev.textDelta(0, 'par')]);
      await received.promise;
      res.destroy();
    });
    const parts: unknown[] = [];
    const error = await failure(
      generate(provider(), '', [], [message('user', 'hi')], {
        onMessagePart: (part) => {
          parts.push(part);
          received.open();
        },
      }),
    );
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(parts).toEqual([{ type: 'text', text: 'par' }]);
  });

  it('treats a stream that ends without response.completed as a broken connection', async () => {
    server.enqueue(responsesStream([ev.created(), ev.textDelta(0, 'cut short')]));
    expect(await failure(run(provider()))).toBeInstanceOf(APIConnectionError);
  });

  it('ends at response.completed even if the server keeps the connection open', async () => {
    const closed = gate();
    server.enqueue((_req, res) => {
      startSSE(res);
      writeResponsesEvents(res, [ev.created(), ev.textDelta(0, 'done'), ev.completed()]);
      res.on('close', () => closed.open());
    });
    const result = await run(provider({ timeoutMs: 5_000 }));
    expect(result.message.content).toEqual([{ type: 'text', text: 'done' }]);
    await closed.promise;
  });

  it('maps a refused connection to APIConnectionError', async () => {
    const gone = await LoopbackServer.start();
    const baseUrl = `${gone.url}/v1`;
    await gone.close();
    expect(await failure(run(provider({ baseUrl })))).toBeInstanceOf(APIConnectionError);
  });

  it('maps response.failed and error events to typed errors', async () => {
    server.enqueue(
      responsesStream([ev.created(), ev.failed('server_error', 'the model crashed')]),
      responsesStream([ev.created(), ev.error('rate_limit_exceeded', 'slow down')]),
      responsesStream([ev.created(), ev.error('invalid_prompt', 'bad prompt')]),
    );
    const failed = await failure(run(provider()));
    expect(failed).toBeInstanceOf(APIStatusError);
    expect((failed as APIStatusError).statusCode).toBe(500);
    expect((failed as APIStatusError).requestId).toBe(REQUEST_ID);
    expect(failed.message).toContain('the model crashed');

    const limited = await failure(run(provider()));
    expect((limited as APIStatusError).statusCode).toBe(429);

    const invalid = await failure(run(provider()));
    expect(invalid).toBeInstanceOf(ChatProviderError);
    expect(invalid).not.toBeInstanceOf(APIStatusError);
    expect(invalid.message).toContain('invalid_prompt');
  });

  it('rejects a malformed event with a provider error', async () => {
    server.enqueue(responsesStream([ev.created(), { type: 'response.output_text.delta', delta: 42 }]));
    const error = await failure(run(provider()));
    expect(error).toBeInstanceOf(ChatProviderError);
    expect(error.message).toContain('response.output_text.delta');
  });

  it('aborts mid-stream with an AbortError and closes the connection', async () => {
    const closed = gate();
    server.enqueue((_req, res) => {
      startSSE(res);
      writeResponsesEvents(res, [ev.created(), ev.textDelta(0, 'first')]);
      res.on('close', () => closed.open());
    });
    const controller = new AbortController();
    const error = await failure(
      generate(provider(), '', [], [message('user', 'hi')], {
        signal: controller.signal,
        onMessagePart: () => controller.abort(),
      }),
    );
    expect(isAbortError(error)).toBe(true);
    await closed.promise;
  });

  it('ends its own stream with an AbortError when the signal fires between parts', async () => {
    const closed = gate();
    server.enqueue((_req, res) => {
      startSSE(res);
      writeResponsesEvents(res, [ev.created(), ev.textDelta(0, 'first')]);
      res.on('close', () => closed.open());
    });
    const controller = new AbortController();
    const stream = await provider().generate({
      systemPrompt: '',
      tools: [],
      history: [message('user', 'hi')],
      signal: controller.signal,
    });
    const iterator = stream[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toEqual({ type: 'text', text: 'first' });
    const next = iterator.next();
    controller.abort();
    expect(isAbortError(await failure(next))).toBe(true);
    await closed.promise;
  });

  it('aborts while waiting for the response headers', async () => {
    const arrived = gate();
    const closed = gate();
    server.enqueue((_req, res) => {
      res.on('close', () => closed.open());
      arrived.open();
    });
    const controller = new AbortController();
    const pending = failure(run(provider(), controller.signal));
    await arrived.promise;
    controller.abort();
    expect(isAbortError(await pending)).toBe(true);
    await closed.promise;
  });

  it('fails at once with an AbortError when the signal is already aborted', async () => {
    const error = await failure(
      provider().generate({ systemPrompt: '', tools: [], history: [], signal: AbortSignal.abort() }),
    );
    expect(isAbortError(error)).toBe(true);
    expect(server.requests).toHaveLength(0);
  });

  it('times out when the headers do not come in time', async () => {
    server.enqueue(() => {
      // never answers
    });
    expect(await failure(run(provider({ timeoutMs: 100 })))).toBeInstanceOf(APITimeoutError);
  });

  it('times out when an open stream goes silent', async () => {
    const closed = gate();
    server.enqueue((_req, res) => {
      startSSE(res);
      writeResponsesEvents(res, [ev.created(), ev.textDelta(0, 'then nothing')]);
      res.on('close', () => closed.open());
    });
    const error = await failure(run(provider({ timeoutMs: 100 })));
    expect(error).toBeInstanceOf(APITimeoutError);
    await closed.promise;
  });
});
