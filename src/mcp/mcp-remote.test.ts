import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpManager } from './mcp-manager.js';
import {
  FILESYSTEM_SERVER,
  type RunningHttpServer,
  startEverythingServer,
} from './test-support/everything-server.js';
import { type HttpMcpServer, startHttpMcpServer } from './test-support/http-mcp-server.js';
import { callTool, outputText, toolsetWithBuiltinEcho } from './test-support/toolset-fixture.js';

let streamable: RunningHttpServer;
let sse: RunningHttpServer;
let bearerServer: HttpMcpServer;
let managers: McpManager[] = [];

beforeAll(async () => {
  [streamable, sse, bearerServer] = await Promise.all([
    startEverythingServer('streamableHttp'),
    startEverythingServer('sse'),
    startHttpMcpServer({ acceptsToken: (token) => token === 'tok-abcdef' }),
  ]);
});
afterAll(async () => {
  await Promise.all([streamable?.stop(), sse?.stop(), bearerServer?.close()]);
});
afterEach(async () => {
  await Promise.all(managers.map((manager) => manager.close()));
  managers = [];
});

async function load(servers: ConstructorParameters<typeof McpManager>[0]['servers']) {
  const { toolset } = toolsetWithBuiltinEcho();
  const manager = new McpManager({ servers });
  managers.push(manager);
  manager.start(toolset);
  await manager.waitForLoading();
  return { manager, toolset };
}

describe('remote transports', () => {
  it('talks Streamable HTTP to the everything server', async () => {
    const { manager, toolset } = await load({
      everything: {
        kind: 'remote',
        url: `${streamable.url}/mcp`,
        headers: {},
        transport: 'streamable-http',
        auth: null,
      },
    });
    expect(manager.transportOf('everything')).toBe('streamable-http');
    expect(outputText(await callTool(toolset, 'get-sum', { a: 20, b: 22 }))).toBe(
      'The sum of 20 and 22 is 42.',
    );
  });

  it('uses Streamable HTTP first when no transport is given', async () => {
    const { manager } = await load({
      everything: {
        kind: 'remote',
        url: `${streamable.url}/mcp`,
        headers: {},
        transport: 'auto',
        auth: null,
      },
    });
    expect(manager.transportOf('everything')).toBe('streamable-http');
  });

  it('falls back to legacy SSE when Streamable HTTP does not work and no transport is given', async () => {
    const { manager, toolset } = await load({
      legacy: { kind: 'remote', url: `${sse.url}/sse`, headers: {}, transport: 'auto', auth: null },
    });
    expect(manager.transportOf('legacy')).toBe('sse');
    expect(outputText(await callTool(toolset, 'get-sum', { a: 1, b: 2 }))).toBe('The sum of 1 and 2 is 3.');
  });

  it('reports both attempts when neither transport works', async () => {
    const { manager } = await load({
      nowhere: {
        kind: 'remote',
        url: `${bearerServer.url.replace('/mcp', '/absent')}`,
        headers: {},
        transport: 'auto',
        auth: null,
      },
    });
    expect(manager.problems()[0]?.message).toMatch(
      /"nowhere" failed: Streamable HTTP failed \(.*404.*\); the SSE fallback failed too/,
    );
  });
});

describe('a remote server that never finishes the handshake', () => {
  it('fails at the startup timeout instead of holding up loading', async () => {
    const silent = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/sse`;
    try {
      const { toolset } = toolsetWithBuiltinEcho();
      const manager = new McpManager({
        servers: { silent: { kind: 'remote', url, headers: {}, transport: 'sse', auth: null } },
        startupTimeoutMs: 300,
      });
      managers.push(manager);
      manager.start(toolset);
      await manager.waitForLoading();
      expect(manager.problems()[0]?.message).toBe(
        'MCP server "silent" failed: it did not finish connecting within 0.3 s (the startup timeout)',
      );
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});

describe('credentials', () => {
  it('sends configured headers and bearer tokens', async () => {
    const { toolset } = await load({
      viaAuth: {
        kind: 'remote',
        url: bearerServer.url,
        headers: {},
        transport: 'streamable-http',
        auth: { type: 'bearer', token: 'tok-abcdef' },
      },
    });
    expect(outputText(await callTool(toolset, 'whoami'))).toBe('token=tok-abcdef');

    const { toolset: second } = await load({
      viaHeader: {
        kind: 'remote',
        url: bearerServer.url,
        headers: { Authorization: 'Bearer tok-abcdef' },
        transport: 'streamable-http',
        auth: null,
      },
    });
    expect(outputText(await callTool(second, 'add', { a: 2, b: 2 }))).toBe('4');
  });

  it('shows a server that refuses us for lack of credentials as unauthorized, with what it needs', async () => {
    const { manager } = await load({
      locked: { kind: 'remote', url: bearerServer.url, headers: {}, transport: 'auto', auth: null },
    });
    expect(manager.statusSnapshot().servers[0]?.status).toBe('unauthorized');
    expect(manager.problems()[0]?.message).toMatch(
      /"locked" is not authorized: .*HTTP 401.*needs credentials/,
    );
  });
});

describe('the filesystem server', () => {
  let root: string;
  beforeAll(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'kimi-ts-mcp-fs-')));
    await writeFile(join(root, 'hello.txt'), 'hello from disk\n');
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('reads a file in its allowed directory over stdio', async () => {
    const { manager, toolset } = await load({
      fs: { kind: 'stdio', command: process.execPath, args: [FILESYSTEM_SERVER, root], env: {} },
    });
    expect(manager.statusSnapshot().servers[0]?.tools).toContain('read_text_file');
    const result = await callTool(toolset, 'read_text_file', { path: join(root, 'hello.txt') });
    expect(outputText(result)).toBe('hello from disk\n');
    const outside = await callTool(toolset, 'read_text_file', { path: '/etc/hostname' });
    expect(outside.return_value.is_error).toBe(true);
  });
});
