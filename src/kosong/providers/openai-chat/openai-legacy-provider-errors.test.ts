import { getEventListeners } from 'node:events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorResponder, gate, LoopbackServer } from '../../../../test/support/loopback-server.js';
import { APIConnectionError, APIStatusError, APITimeoutError } from '../../errors.js';
import { generate } from '../../generate.js';
import { type Message, message, type StreamedPart } from '../../message.js';
import type { Tool } from '../../tool.js';
import { OpenAIChatProvider } from './openai-legacy-provider.js';
import { chatStream, textChunk } from './test-support/chat-sse.js';

const API_KEY = 'sk-legacy-secret-0123456789';
const history: Message[] = [message('user', 'hi')];

let server: LoopbackServer;
beforeEach(async () => {
  server = await LoopbackServer.start();
});
afterEach(async () => {
  await server.close();
});

function provider(
  extra: Partial<ConstructorParameters<typeof OpenAIChatProvider>[0]> = {},
): OpenAIChatProvider {
  return new OpenAIChatProvider({
    model: 'gpt-test',
    baseUrl: `${server.url}/v1`,
    apiKey: API_KEY,
    ...extra,
  });
}

/** Runs `generate` and also collects the raw parts as the provider streamed them. */
async function run(p: OpenAIChatProvider, msgs: Message[] = history, tools: Tool[] = []) {
  const raw: StreamedPart[] = [];
  const result = await generate(p, 'You are a test.', tools, msgs, {
    onMessagePart: (part) => raw.push(part),
  });
  return { ...result, raw };
}

function _lastBody(): Record<string, unknown> {
  const body = server.requests.at(-1)?.body;
  if (typeof body !== 'object' || body === null) throw new Error('no JSON request body recorded');
  return body as Record<string, unknown>;
}

describe('OpenAIChatProvider errors', () => {
  it.each([
    [401, {}, null],
    [429, { 'retry-after': '3' }, 3000],
    [500, {}, null],
  ])(
    'answers HTTP %i with APIStatusError carrying status, request id and retry-after',
    async (status, headers, retryAfterMs) => {
      server.enqueue(
        errorResponder(
          status,
          { error: { message: `bad key ${API_KEY}`, type: 'x' } },
          { 'x-request-id': 'req-42', ...headers },
        ),
      );
      const error = await run(provider()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(APIStatusError);
      const statusError = error as APIStatusError;
      expect(statusError.statusCode).toBe(status);
      expect(statusError.requestId).toBe('req-42');
      expect(statusError.retryAfterMs).toBe(retryAfterMs);
      expect(statusError.message).not.toContain(API_KEY);
      expect(server.requests).toHaveLength(1); // the SDK's own retries are off
    },
  );

  it('reports a connection dropped mid-stream as APIConnectionError', async () => {
    const firstPartSeen = gate();
    server.enqueue(chatStream([textChunk('partial'), firstPartSeen.promise, 'drop']));
    const error = await generate(provider(), '', [], history, {
      onMessagePart: () => firstPartSeen.open(),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).not.toContain(API_KEY);
  });

  it('reports a refused connection as APIConnectionError', async () => {
    const url = server.url;
    await server.close();
    const p = new OpenAIChatProvider({ model: 'm', baseUrl: url, apiKey: API_KEY });
    await expect(run(p)).rejects.toBeInstanceOf(APIConnectionError);
    server = await LoopbackServer.start();
  });

  it('reports a server that does not answer in time as APITimeoutError', async () => {
    const never = gate();
    server.enqueue(async () => never.promise);
    await expect(run(provider({ timeoutMs: 50 }))).rejects.toBeInstanceOf(APITimeoutError);
  });

  it('gives up on a stream that goes quiet mid-answer with APITimeoutError', async () => {
    const never = gate();
    const closed = gate();
    server.enqueue(chatStream([textChunk('partial'), never.promise], { onClose: () => closed.open() }));
    await expect(run(provider({ timeoutMs: 50 }))).rejects.toBeInstanceOf(APITimeoutError);
    await closed.promise;
  });

  it('rebuilds its client on a retryable error and works afterwards', async () => {
    const p = provider();
    expect(await p.onRetryableError(new APIConnectionError('boom'))).toBe(true);
    server.enqueue(chatStream([textChunk('again')]));
    expect((await run(p)).message.content).toEqual([{ type: 'text', text: 'again' }]);
  });
});

describe('OpenAIChatProvider cancellation', () => {
  it('ends a held-open stream promptly when the signal aborts, and closes the connection', async () => {
    const held = gate();
    const closed = gate();
    server.enqueue(chatStream([textChunk('first'), held.promise], { onClose: () => closed.open() }));
    const controller = new AbortController();
    const stream = await provider().generate({
      systemPrompt: '',
      tools: [],
      history,
      signal: controller.signal,
    });
    const parts = stream[Symbol.asyncIterator]();
    expect((await parts.next()).value).toEqual({ type: 'text', text: 'first' });

    const pending = parts.next();
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await closed.promise;
  });

  it('aborts a request still waiting for its answer', async () => {
    const arrived = gate();
    server.enqueue(async () => {
      arrived.open();
      await new Promise(() => {});
    });
    const controller = new AbortController();
    const pending = provider().generate({ systemPrompt: '', tools: [], history, signal: controller.signal });
    await arrived.promise;
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('leaves no listener on a long-lived signal once its requests are done', async () => {
    const controller = new AbortController();
    server.enqueue(chatStream([textChunk('a')]), errorResponder(500, {}), chatStream([textChunk('c')]));
    const p = provider();
    await generate(p, '', [], history, { signal: controller.signal });
    await generate(p, '', [], history, { signal: controller.signal }).catch(() => {});
    await generate(p, '', [], history, { signal: controller.signal });
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('does not send a request when the signal has already fired', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      provider().generate({ systemPrompt: '', tools: [], history, signal: controller.signal }),
    ).rejects.toMatchObject({ name: 'AbortError' });
    expect(server.requests).toHaveLength(0);
  });
});
