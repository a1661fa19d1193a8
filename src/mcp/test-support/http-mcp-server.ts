import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

export interface HttpMcpServerOptions {
  /** When set, `/mcp` needs `Authorization: Bearer <token>` with a token this accepts. */
  acceptsToken?: ((token: string) => boolean) | undefined;
  /** Advertised in the protected-resource metadata (RFC 9728). */
  authorizationServer?: string | undefined;
}

export interface HttpMcpServer {
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  /** Authorization headers seen on `/mcp` requests, in order. */
  readonly authorizations: (string | undefined)[];
  close(): Promise<void>;
}

/**
 * A Streamable HTTP MCP server on the loopback interface, built on the SDK's server classes
 * (stateless: one server per request), optionally behind bearer-token auth. Its one tool,
 * `whoami`, answers with the token it was called with.
 */
export async function startHttpMcpServer(options: HttpMcpServerOptions = {}): Promise<HttpMcpServer> {
  const authorizations: (string | undefined)[] = [];
  const sockets = new Set<Socket>();
  let base = '';
  const server: Server = createServer((req, res) => {
    void handle(req, res).catch(() => res.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', base).pathname;
    if (path.startsWith('/.well-known/oauth-protected-resource')) {
      if (!options.authorizationServer) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ resource: `${base}/mcp`, authorization_servers: [options.authorizationServer] }),
      );
      return;
    }
    if (path !== '/mcp') return void res.writeHead(404).end();
    const authorization = req.headers.authorization;
    authorizations.push(authorization);
    if (options.acceptsToken) {
      const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
      if (!token || !options.acceptsToken(token)) {
        res.writeHead(401, {
          'content-type': 'application/json',
          'www-authenticate': `Bearer error="invalid_token", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
        });
        res.end(JSON.stringify({ error: 'invalid_token' }));
        return;
      }
    }
    const mcp = new McpServer({ name: 'loopback-http', version: '1.0.0' });
    mcp.registerTool('whoami', { description: 'Says which token called it.', inputSchema: {} }, async () => ({
      content: [{ type: 'text', text: `token=${/^Bearer (.+)$/.exec(authorization ?? '')?.[1] ?? 'none'}` }],
    }));
    mcp.registerTool(
      'add',
      { description: 'Adds two numbers.', inputSchema: { a: z.number(), b: z.number() } },
      async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
    );
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(req, res, await readJson(req));
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${base}/mcp`,
    authorizations,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  if (req.method !== 'POST') return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}
