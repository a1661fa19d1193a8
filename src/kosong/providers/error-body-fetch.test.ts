import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { errorBodyFetch, serverMessage } from './error-body-fetch.js';

interface Echo {
  hex: string;
  length: string | undefined;
  type: string | undefined;
}

/** A loopback server that answers each request with the bytes and headers it received. */
async function withEchoServer(use: (url: string) => Promise<void>): Promise<void> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const received = Buffer.concat(chunks);
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({
          hex: received.toString('hex'),
          length: request.headers['content-length'],
          type: request.headers['content-type'],
        }),
      );
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  try {
    await use(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  } finally {
    await new Promise((done) => server.close(done));
  }
}

describe('errorBodyFetch: the request body', () => {
  it('sends a string body as the same bytes plain fetch sends (UTF-8, lone surrogates as U+FFFD)', async () => {
    const body = `{"content":"naïve 日本 🙂 \ud800 lone ${'x'.repeat(70_000)}"}`;
    await withEchoServer(async (url) => {
      const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body };
      const viaPlain = (await (await fetch(url, init)).json()) as Echo;
      const viaOurs = (await (await errorBodyFetch(url, init)).json()) as Echo;
      expect(viaOurs).toEqual(viaPlain);
      expect(Buffer.from(viaOurs.hex, 'hex').toString('utf8')).toBe(body.replace('\ud800', '\ufffd'));
      expect(Number(viaOurs.length)).toBe(Buffer.byteLength(viaOurs.hex, 'hex'));
      expect(viaOurs.type).toBe('application/json');
      // The caller's init is not changed (the SDK may send it again on a retry).
      expect(init.body).toBe(body);
    });
  });
});

describe('serverMessage: the words of an error body the OpenAI SDK would not find', () => {
  it.each([
    ['"Invalid Authentication"', 'Invalid Authentication'],
    ['{"message":"key expired"}', 'key expired'],
    ['{"detail":"Not allowed"}', 'Not allowed'],
    ['{"error":"quota"}', 'quota'],
    // The SDK's own shape, and what is no JSON at all, pass as they are.
    ['{"error":{"message":"bad"}}', null],
    ['plain text', null],
    ['""', null],
    ['[1,2]', null],
    ['{}', null],
  ])('%s → %s', (body, expected) => {
    expect(serverMessage(body)).toBe(expected);
  });
});

describe('errorBodyFetch: redirects', () => {
  it("follows no redirect to another origin: a key in a custom header and the conversation stay with the endpoint's host", async () => {
    const seen: { headers: Record<string, unknown>; body: string }[] = [];
    const other = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        seen.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
        response.setHeader('content-type', 'application/json');
        response.end('{"choices":[]}');
      });
    });
    await new Promise<void>((done) => other.listen(0, '127.0.0.1', done));
    // The same machine by another name: another origin, as a redirect to another host is.
    const elsewhere = `http://localhost:${(other.address() as AddressInfo).port}/collect`;
    const endpoint = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.statusCode = 307;
        response.setHeader('location', elsewhere);
        response.end();
      });
    });
    await new Promise<void>((done) => endpoint.listen(0, '127.0.0.1', done));
    try {
      const response = await errorBodyFetch(
        `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/v1/chat`,
        {
          method: 'POST',
          headers: { 'api-key': 'sk-custom-header-key', 'content-type': 'application/json' },
          body: '{"messages":[{"role":"user","content":"the private conversation"}]}',
        },
      );
      expect(response.ok).toBe(false);
      expect(seen).toEqual([]);
    } finally {
      await new Promise((done) => endpoint.close(done));
      await new Promise((done) => other.close(done));
    }
  });

  it('follows a redirect on the same origin, with the same body and headers', async () => {
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        if (request.url === '/old') {
          response.statusCode = 308;
          response.setHeader('location', '/new');
          response.end();
          return;
        }
        response.setHeader('content-type', 'application/json');
        response.end(
          JSON.stringify({ body: Buffer.concat(chunks).toString('utf8'), key: request.headers['api-key'] }),
        );
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/old`;
      const response = await errorBodyFetch(url, {
        method: 'POST',
        headers: { 'api-key': 'k' },
        body: '{"a":1}',
      });
      expect(await response.json()).toEqual({ body: '{"a":1}', key: 'k' });
    } finally {
      await new Promise((done) => server.close(done));
    }
  });
});

describe('errorBodyFetch: an error body without end', () => {
  it('reads at most 1 MiB of it: a server that streams an error body forever holds no memory and no call', async () => {
    const server = createServer((request, response) => {
      request.resume();
      response.writeHead(500, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const pump = () => {
        while (!response.destroyed && response.write(chunk)) {}
        if (!response.destroyed) response.once('drain', pump);
      };
      pump();
      response.on('close', () => response.removeAllListeners('drain'));
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      const response = await errorBodyFetch(url, { method: 'POST', body: '{}' });
      expect(response.status).toBe(500);
      const text = await response.text();
      expect(text.length).toBeLessThanOrEqual(1024 * 1024 + 200);
      expect(text).toContain('[error body cut at 1 MiB]');
    } finally {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    }
  }, 20_000);
});
