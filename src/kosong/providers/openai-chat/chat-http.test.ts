import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { APIStatusError, ChatProviderError } from '../../errors.js';
import { generate } from '../../generate.js';
import { message } from '../../message.js';
import { OpenAIChatProvider } from './openai-legacy-provider.js';

const KEY = 'sk-chat-http-secret-0123456789';

interface Received {
  url: string | undefined;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

/** A loopback server answering with `answer`; what it received, and its connections, counted. */
async function withServer(
  answer: (request: Received, response: ServerResponse) => void,
  use: (origin: string, seen: Received[], connections: () => number) => Promise<void>,
): Promise<void> {
  const seen: Received[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const received = { url: request.url, headers: request.headers, body: Buffer.concat(chunks) };
      seen.push(received);
      answer(received, response);
    });
  });
  server.on('connection', (socket) => {
    connections++;
    sockets.add(socket);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  try {
    await use(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, () => connections);
  } finally {
    for (const socket of sockets) socket.destroy();
    await new Promise((done) => server.close(done));
  }
}

const chunk = (content: string) => ({
  id: 'c1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [{ index: 0, delta: { content }, finish_reason: null }],
});

function sse(response: ServerResponse, text: string, headers: Record<string, string> = {}): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', ...headers });
  response.end(text);
}

const provider = (baseUrl: string, extra: Record<string, unknown> = {}) =>
  new OpenAIChatProvider({ model: 'm', baseUrl, apiKey: KEY, ...extra });

const ask = (p: OpenAIChatProvider, text = 'hi') => generate(p, 'sys', [], [message('user', text)]);

describe('Chat Completions over Node HTTP', () => {
  it('sends the body as UTF-8 JSON (a lone surrogate escaped, as JSON.stringify does) with auth and custom headers, on one kept-alive connection', async () => {
    await withServer(
      (_request, response) => sse(response, `data: ${JSON.stringify(chunk('ok'))}\n\ndata: [DONE]\n\n`),
      async (origin, seen, connections) => {
        const p = provider(`${origin}/v1`, { customHeaders: { 'X-Gateway-Key': 'gw' } });
        const text = 'naïve 日本 🙂 \ud800 lone';
        expect((await ask(p, text)).message.content).toEqual([{ type: 'text', text: 'ok' }]);
        expect((await ask(p, text)).message.content).toEqual([{ type: 'text', text: 'ok' }]);
        const [first] = seen;
        expect(first?.url).toBe('/v1/chat/completions');
        expect(first?.headers.authorization).toBe(`Bearer ${KEY}`);
        expect(first?.headers['x-gateway-key']).toBe('gw');
        expect(first?.headers['content-type']).toBe('application/json');
        const body = JSON.parse(first?.body.toString('utf8') ?? '') as { messages: { content: string }[] };
        expect(body.messages.at(-1)?.content).toBe(text);
        expect(Number(first?.headers['content-length'])).toBe(first?.body.length);
        expect(connections()).toBe(1);
      },
    );
  });

  it('reads events cut anywhere, with CRLF, comments and data over several lines, up to [DONE]', async () => {
    const events = `: keep-alive\r\ndata: ${JSON.stringify(chunk('a'))}\r\n\r\nevent: message\ndata: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m",\ndata: "choices":[{"index":0,"delta":{"content":"b"},"finish_reason":null}]}\n\ndata: [DONE]\n\ndata: ${JSON.stringify(chunk('after done'))}\n\n`;
    await withServer(
      (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        // One byte at a time: every place an event, a line or a CRLF can be cut.
        const bytes = Buffer.from(events);
        let at = 0;
        const next = () => {
          if (at >= bytes.length) return void response.end();
          response.write(bytes.subarray(at, ++at), next);
        };
        next();
      },
      async (origin) => {
        const result = await ask(provider(origin));
        expect(result.message.content).toEqual([{ type: 'text', text: 'ab' }]);
      },
    );
  });

  it('reads a compressed stream', async () => {
    await withServer(
      (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
        response.end(gzipSync(`data: ${JSON.stringify(chunk('zipped'))}\n\ndata: [DONE]\n\n`));
      },
      async (origin) => {
        expect((await ask(provider(origin))).message.content).toEqual([{ type: 'text', text: 'zipped' }]);
      },
    );
  });

  it('reports an error event in the stream as a provider error, without the key', async () => {
    await withServer(
      (_request, response) =>
        sse(response, `data: ${JSON.stringify({ error: { message: `overloaded for ${KEY}` } })}\n\n`),
      async (origin) => {
        const error = await ask(provider(origin)).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ChatProviderError);
        expect((error as Error).message).toContain('overloaded');
        expect((error as Error).message).not.toContain(KEY);
      },
    );
  });

  it('passes an event whose data is JSON null on to be refused, not dropped', async () => {
    await withServer(
      (_request, response) => sse(response, 'data: null\n\ndata: [DONE]\n\n'),
      async (origin) => {
        const error = await ask(provider(origin)).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ChatProviderError);
        expect((error as Error).message).toContain('unexpected shape');
      },
    );
  });

  it.each([
    ['"Invalid Authentication"', 'Invalid Authentication'],
    ['{"detail":"Not allowed"}', 'Not allowed'],
    ['{"error":{"message":"bad model"}}', 'bad model'],
    ['plain words', 'plain words'],
  ])('words of an error body %s reach the message', async (body, words) => {
    await withServer(
      (_request, response) => {
        response.writeHead(403, { 'content-type': 'application/json', 'x-request-id': 'req-9' });
        response.end(body);
      },
      async (origin) => {
        const error = await ask(provider(origin)).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(APIStatusError);
        expect((error as APIStatusError).statusCode).toBe(403);
        expect((error as APIStatusError).requestId).toBe('req-9');
        expect((error as Error).message).toContain(words);
      },
    );
  });

  it('reads at most 1 MiB of an error body that never ends', async () => {
    let closed!: () => void;
    const connectionClosed = new Promise<void>((resolve) => {
      closed = resolve;
    });
    await withServer(
      (_request, response) => {
        response.on('close', closed);
        response.writeHead(500, { 'content-type': 'text/plain' });
        const piece = Buffer.alloc(64 * 1024, 'x');
        const pump = () => {
          while (!response.destroyed && response.write(piece)) {}
          if (!response.destroyed) response.once('drain', pump);
        };
        pump();
      },
      async (origin) => {
        const error = await ask(provider(origin)).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(APIStatusError);
        expect((error as Error).message).toContain('[error body cut at 1 MiB]');
        expect((error as Error).message.length).toBeLessThan(1024 * 1024 + 200);
        // The connection is closed from our side: the server stops writing.
        await connectionClosed;
      },
    );
  });

  it('gives up on an event without end and closes the connection: memory stays bounded', async () => {
    let closed!: () => void;
    const connectionClosed = new Promise<void>((resolve) => {
      closed = resolve;
    });
    await withServer(
      (_request, response) => {
        response.on('close', closed);
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write('data: ');
        const piece = Buffer.alloc(64 * 1024, 'x');
        const pump = () => {
          while (!response.destroyed && response.write(piece)) {}
          if (!response.destroyed) response.once('drain', pump);
        };
        pump();
      },
      async (origin) => {
        const error = await ask(provider(origin)).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ChatProviderError);
        expect((error as Error).message).toContain('stream event of more than');
        await connectionClosed;
      },
    );
  });

  it('follows a 307 to another origin nowhere: the key and the conversation stay with the endpoint', async () => {
    await withServer(
      (_request, response) => sse(response, `data: ${JSON.stringify(chunk('stolen'))}\n\n`),
      async (elsewhere, stolen) => {
        await withServer(
          (_request, response) => {
            // The same machine by another name: another origin, as another host is.
            response.writeHead(307, { location: `${elsewhere.replace('127.0.0.1', 'localhost')}/collect` });
            response.end();
          },
          async (origin) => {
            const p = provider(origin, { customHeaders: { 'api-key': 'sk-custom-header-key' } });
            const error = await ask(p, 'the private conversation').catch((e: unknown) => e);
            expect(error).toBeInstanceOf(APIStatusError);
            expect((error as APIStatusError).statusCode).toBe(307);
            expect(stolen).toEqual([]);
          },
        );
      },
    );
  });

  it('follows a 308 on the same origin with the same body and headers', async () => {
    await withServer(
      (request, response) => {
        if (request.url === '/old/chat/completions') {
          response.writeHead(308, { location: '/new/chat/completions' });
          return void response.end();
        }
        sse(response, `data: ${JSON.stringify(chunk('moved'))}\n\n`);
      },
      async (origin, seen) => {
        const p = provider(`${origin}/old`, { customHeaders: { 'api-key': 'k' } });
        expect((await ask(p)).message.content).toEqual([{ type: 'text', text: 'moved' }]);
        expect(seen.map((r) => r.url)).toEqual(['/old/chat/completions', '/new/chat/completions']);
        expect(seen[1]?.body.equals(seen[0]?.body ?? Buffer.alloc(0))).toBe(true);
        expect(seen[1]?.headers['api-key']).toBe('k');
      },
    );
  });

  it('refuses a custom header Node cannot send as a provider error, not a retryable connection error', async () => {
    await withServer(
      (_request, response) => sse(response, ''),
      async (origin, seen) => {
        const error = await ask(provider(origin, { customHeaders: { 'bad name': 'x' } })).catch(
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(ChatProviderError);
        expect(error).not.toBeInstanceOf(APIStatusError);
        expect(seen).toEqual([]);
      },
    );
  });
});
