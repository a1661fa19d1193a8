import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { errorResponder, gate, LoopbackServer } from '../../../../test/support/loopback-server.js';
import { APIConnectionError, APIStatusError, APITimeoutError, isAbortError } from '../../errors.js';
import { generate } from '../../generate.js';
import type { Message, StreamedPart } from '../../message.js';
import type { ProviderOptions } from '../options.js';
import { AnthropicProvider } from './anthropic-provider.js';
import {
  closed,
  errorEvent,
  messageDelta,
  messageStart,
  messageStop,
  silentResponder,
  sseResponder,
  textBlock,
  toolUseBlock,
} from './test-support/anthropic-sse.js';

const API_KEY = 'sk-ant-test-secret';
const history: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }];
let server: LoopbackServer;

beforeAll(async () => {
  server = await LoopbackServer.start();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
});

function provider(extra: Partial<ProviderOptions> = {}): AnthropicProvider {
  return new AnthropicProvider({ model: 'claude-test', baseUrl: server.url, apiKey: API_KEY, ...extra });
}

/** Runs a whole call and returns what it threw, with the parts that arrived before. */
async function failure(
  p: AnthropicProvider,
  signal?: AbortSignal,
): Promise<{ error: unknown; parts: StreamedPart[] }> {
  const parts: StreamedPart[] = [];
  try {
    await generate(p, 'sys', [], history, { signal, onMessagePart: (part) => parts.push(part) });
  } catch (error) {
    return { error, parts };
  }
  throw new Error('the call was expected to fail');
}

const anthropicError = (type: string, message: string) => ({ type: 'error', error: { type, message } });

describe('AnthropicProvider HTTP errors', () => {
  it.each<{ status: number; body: unknown; headers: Record<string, string>; retryAfterMs: number | null }>([
    {
      status: 401,
      body: anthropicError('authentication_error', `invalid key ${API_KEY}`),
      headers: { 'request-id': 'req_401' },
      retryAfterMs: null,
    },
    {
      status: 429,
      body: anthropicError('rate_limit_error', 'slow down'),
      headers: { 'request-id': 'req_429', 'retry-after': '7' },
      retryAfterMs: 7_000,
    },
    {
      status: 500,
      body: anthropicError('api_error', 'internal'),
      headers: { 'request-id': 'req_500' },
      retryAfterMs: null,
    },
  ])('maps a $status answer to APIStatusError with request id, once, without the key', async (row) => {
    server.enqueue(errorResponder(row.status, row.body, row.headers));
    const { error } = await failure(provider());

    expect(error).toBeInstanceOf(APIStatusError);
    const status = error as APIStatusError;
    expect(status.statusCode).toBe(row.status);
    expect(status.requestId).toBe(row.headers['request-id']);
    expect(status.retryAfterMs).toBe(row.retryAfterMs);
    expect(status.message).not.toContain(API_KEY);
    expect(server.requests).toHaveLength(1); // the SDK must not retry on its own
  });

  it('maps a refused connection to APIConnectionError', async () => {
    const gone = await LoopbackServer.start();
    const url = gone.url;
    await gone.close();
    const { error } = await failure(provider({ baseUrl: url }));
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).not.toContain(API_KEY);
  });
});

describe('AnthropicProvider broken streams', () => {
  it('maps a connection dropped mid-stream to APIConnectionError after the parts that arrived', async () => {
    server.enqueue(
      sseResponder([messageStart('m'), ...toolUseBlock(0, 'toolu_1', 'Shell', ['{"comm'])], {
        ending: 'drop',
      }),
    );
    const { error, parts } = await failure(provider());
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(parts).toEqual([
      { type: 'function', id: 'toolu_1', function: { name: 'Shell', arguments: '' } },
      { type: 'tool_call_part', arguments_part: '{"comm' },
    ]);
  });

  it('maps a stream that ends cleanly but without message_stop to APIConnectionError', async () => {
    server.enqueue(sseResponder([messageStart('m'), ...textBlock(0, ['partial'])]));
    const { error } = await failure(provider());
    expect(error).toBeInstanceOf(APIConnectionError);
  });

  it('maps an overloaded_error event to a retryable APIStatusError 529 with the request id', async () => {
    server.enqueue(
      sseResponder(
        [messageStart('m'), ...textBlock(0, ['so']), errorEvent('overloaded_error', 'Overloaded')],
        {
          headers: { 'request-id': 'req_sse' },
        },
      ),
    );
    const { error, parts } = await failure(provider());
    expect(error).toBeInstanceOf(APIStatusError);
    expect((error as APIStatusError).statusCode).toBe(529);
    expect((error as APIStatusError).requestId).toBe('req_sse');
    expect((error as Error).message).toContain('Overloaded');
    expect(parts).toEqual([{ type: 'text', text: 'so' }]);
  });

  it('maps an unknown error event type to APIConnectionError', async () => {
    server.enqueue(sseResponder([messageStart('m'), errorEvent('mystery_error', 'what')]));
    const { error } = await failure(provider());
    expect(error).toBeInstanceOf(APIConnectionError);
  });
});

describe('AnthropicProvider timeouts', () => {
  it('maps a server that never answers to APITimeoutError', async () => {
    server.enqueue(silentResponder);
    const { error } = await failure(provider({ timeoutMs: 150 }));
    expect(error).toBeInstanceOf(APITimeoutError);
  });

  it('maps a stream that goes silent after its headers to APITimeoutError and hangs up', async () => {
    const response = gate<ServerResponse>();
    server.enqueue(async (req, res) => {
      response.open(res);
      await sseResponder([messageStart('m'), ...textBlock(0, ['hel'])], { ending: 'hold' })(req, res);
    });
    const { error, parts } = await failure(provider({ timeoutMs: 150 }));
    expect(error).toBeInstanceOf(APITimeoutError);
    expect(parts).toEqual([{ type: 'text', text: 'hel' }]);
    await closed(await response.promise); // the client gave up the connection
  });
});

describe('AnthropicProvider cancellation', () => {
  it('aborts mid-stream with an AbortError and closes the connection', async () => {
    const response = gate<ServerResponse>();
    const flushed = gate();
    server.enqueue(async (req, res) => {
      response.open(res);
      await sseResponder([messageStart('m'), ...textBlock(0, ['first'])], {
        ending: 'hold',
        onFlushed: () => flushed.open(),
      })(req, res);
    });
    const controller = new AbortController();
    const stream = await provider().generate({
      systemPrompt: 'sys',
      tools: [],
      history,
      signal: controller.signal,
    });
    const parts: StreamedPart[] = [];
    const consumed = (async () => {
      for await (const part of stream) {
        if (part.type !== 'tool_call_end') parts.push(part);
        controller.abort();
      }
    })();

    await expect(consumed).rejects.toSatisfy(isAbortError);
    expect(parts).toEqual([{ type: 'text', text: 'first' }]);
    await flushed.promise;
    await closed(await response.promise);
  });

  it('aborts while waiting for the response headers', async () => {
    const arrived = gate();
    server.enqueue(async (req, res) => {
      arrived.open();
      await silentResponder(req, res);
    });
    const controller = new AbortController();
    const pending = provider().generate({
      systemPrompt: 'sys',
      tools: [],
      history,
      signal: controller.signal,
    });
    await arrived.promise;
    controller.abort();
    await expect(pending).rejects.toSatisfy(isAbortError);
  });

  it('refuses to start with an already aborted signal, sending nothing', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      provider().generate({ systemPrompt: 'sys', tools: [], history, signal: controller.signal }),
    ).rejects.toSatisfy(isAbortError);
    expect(server.requests).toHaveLength(0);
  });
});

describe('AnthropicProvider connection recovery', () => {
  it('rebuilds its client on a retryable error and works on the next call', async () => {
    const p = provider();
    server.enqueue((_req, res) => {
      res.socket?.destroy();
    });
    const { error } = await failure(p);
    expect(error).toBeInstanceOf(APIConnectionError);

    await expect(p.onRetryableError(error as Error)).resolves.toBe(true);
    server.enqueue(
      sseResponder([
        messageStart('m2'),
        ...textBlock(0, ['back']),
        messageDelta('end_turn', 1),
        messageStop(),
      ]),
    );
    const result = await generate(p, 'sys', [], history);
    expect(result.message.content).toEqual([{ type: 'text', text: 'back' }]);
    expect(server.requests).toHaveLength(2);
  });
});

describe('AnthropicProvider redirects', () => {
  it('never follows a redirect to another host: its key (x-api-key) and the conversation stay with the endpoint', async () => {
    const elsewhere = await LoopbackServer.start();
    try {
      const port = new URL(elsewhere.url).port;
      server.enqueue((_req, res: ServerResponse) => {
        res.writeHead(307, { location: `http://localhost:${port}/v1/messages` });
        res.end();
      });
      const { error } = await failure(provider());
      expect(error).toBeInstanceOf(APIStatusError);
      expect((error as APIStatusError).statusCode).toBe(307);
      expect(elsewhere.requests).toEqual([]);
    } finally {
      await elsewhere.close();
    }
  });
});
