import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { expect, it } from 'vitest';
import { generate } from '../../generate.js';
import { message } from '../../message.js';
import { OpenAIChatProvider } from './openai-legacy-provider.js';

const KEY = 'sk-chat-http-secret-0123456789';

// A redirect whose Location is not a URL, with a body that never ends: the answer is given up, and
// its connection must go with it (it was left open, paused, for as long as the server liked).
it('a redirect with an unreadable Location and an endless body: an error, and the connection is closed', async () => {
  let socket: Socket | undefined;
  let closed!: () => void;
  const connectionClosed = new Promise<void>((done) => {
    closed = done;
  });
  const server = createServer((_request, response) => {
    response.writeHead(307, { location: 'http://[not-a-host', 'content-type': 'text/plain' });
    response.write('x'.repeat(1024));
  });
  server.on('connection', (s) => {
    socket = s;
    s.on('close', closed);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  try {
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const provider = new OpenAIChatProvider({ model: 'm', baseUrl: `${origin}/v1`, apiKey: KEY });
    const error = await generate(provider, 'sys', [], [message('user', 'hi')]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(String((error as Error).message)).not.toContain(KEY);
    await connectionClosed;
  } finally {
    socket?.destroy();
    await new Promise((done) => server.close(done));
  }
}, 10_000);
