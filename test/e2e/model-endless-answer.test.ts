import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { CliSandbox } from '../support/run-cli.js';

/**
 * A model server that answers with text without end (a hostile one, or one stuck in a loop with no
 * output limit): the CLI gives the answer up with a clear error once it passes the bound, instead of
 * holding it in memory until the process dies.
 */
const sockets = new Set<Socket>();
const closers: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  for (const close of closers.splice(0)) await close();
});

function streamForever(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  const event = `data: ${JSON.stringify({
    id: 'c1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta: { content: 'x'.repeat(256 * 1024) }, finish_reason: null }],
  })}\n\n`;
  const pump = (): void => {
    while (!response.destroyed && response.write(event)) {}
  };
  response.on('drain', pump);
  pump();
}

it('print mode: an answer streamed without end is given up with an error, the process exits', async () => {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => streamForever(response));
  });
  server.on('connection', (socket) => sockets.add(socket));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  closers.push(() => new Promise((done) => server.close(done)));
  const sandbox = await CliSandbox.create({
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
  });
  closers.push(() => sandbox.remove());
  const result = await sandbox.run(['--print', '--max-retries-per-step', '1', '-p', 'talk']);
  expect(result.code).not.toBe(0);
  expect(result.stderr).toContain('The API sent an answer of more than');
}, 120_000);
