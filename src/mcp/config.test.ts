import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadMcpConfig, McpConfigError, parseMcpConfig } from './config.js';

/** A `${NAME}` reference as written in a Claude Code .mcp.json file. */
const ref = (inner: string): string => ['$', '{', inner, '}'].join('');

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kimi-ts-mcp-config-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('parseMcpConfig', () => {
  it('reads the Kimi CLI example file as is', () => {
    const servers = parseMcpConfig(
      JSON.stringify({
        mcpServers: {
          context7: {
            url: 'https://mcp.context7.com/mcp',
            transport: 'http',
            headers: { CONTEXT7_API_KEY: 'k' },
          },
          linear: { url: 'https://mcp.linear.app/mcp', transport: 'http', auth: 'oauth' },
          'chrome-devtools': { command: 'npx', args: ['chrome-devtools-mcp@latest'], env: { X: '1' } },
        },
      }),
      'mcp.json',
    );
    expect(servers).toEqual({
      context7: {
        kind: 'remote',
        url: 'https://mcp.context7.com/mcp',
        headers: { CONTEXT7_API_KEY: 'k' },
        transport: 'streamable-http',
        auth: null,
      },
      linear: {
        kind: 'remote',
        url: 'https://mcp.linear.app/mcp',
        headers: {},
        transport: 'streamable-http',
        auth: { type: 'oauth' },
      },
      'chrome-devtools': {
        kind: 'stdio',
        command: 'npx',
        args: ['chrome-devtools-mcp@latest'],
        env: { X: '1' },
        cwd: undefined,
      },
    });
  });

  it('reads a Claude Code .mcp.json (type, env references) as is', () => {
    const servers = parseMcpConfig(
      JSON.stringify({
        mcpServers: {
          api: {
            type: 'http',
            url: `${ref('API_BASE:-https://fallback.example')}/mcp`,
            headers: { Authorization: `Bearer ${ref('TOKEN')}` },
          },
          legacy: { type: 'sse', url: 'https://sse.example/sse' },
          local: { type: 'stdio', command: 'node', args: [`${ref('HOME')}/server.js`], cwd: '/srv' },
        },
      }),
      '.mcp.json',
      { TOKEN: 'secret-token', HOME: '/home/me' },
    );
    expect(servers.api).toMatchObject({
      url: 'https://fallback.example/mcp',
      headers: { Authorization: 'Bearer secret-token' },
      transport: 'streamable-http',
    });
    expect(servers.legacy).toMatchObject({ kind: 'remote', transport: 'sse' });
    expect(servers.local).toMatchObject({ kind: 'stdio', args: ['/home/me/server.js'], cwd: '/srv' });
  });

  it('leaves the transport open (auto) when none is given, and treats a non-oauth auth as a bearer token', () => {
    const servers = parseMcpConfig(
      JSON.stringify({ mcpServers: { r: { url: 'http://127.0.0.1:9/mcp', auth: 'tok-123456' } } }),
      'x',
    );
    expect(servers.r).toMatchObject({ transport: 'auto', auth: { type: 'bearer', token: 'tok-123456' } });
  });

  it.each([
    ['not JSON', '{', /x\.json: not valid JSON/],
    [
      'both command and url',
      '{"mcpServers":{"s":{"command":"a","url":"http://h"}}}',
      /MCP server "s": give either/,
    ],
    ['neither', '{"mcpServers":{"s":{"args":[]}}}', /MCP server "s": give either/],
    ['a bad URL', '{"mcpServers":{"s":{"url":"ftp://h"}}}', /MCP server "s": "url" must be an http\(s\) URL/],
    ['args not strings', '{"mcpServers":{"s":{"command":"a","args":[1]}}}', /MCP server "s": "args\.0"/],
    [
      'a stdio transport with a url',
      '{"mcpServers":{"s":{"url":"http://h","transport":"stdio"}}}',
      /needs a "command"/,
    ],
    ['mcpServers not an object', '{"mcpServers":[]}', /expected an object with "mcpServers"/],
  ])('rejects %s with an error naming the file and the server', (_label, text, message) => {
    expect(() => parseMcpConfig(text, 'x.json')).toThrow(message);
    try {
      parseMcpConfig(text, 'x.json');
    } catch (error) {
      expect(error).toBeInstanceOf(McpConfigError);
      expect((error as McpConfigError).source).toBe('x.json');
    }
  });
});

describe('loadMcpConfig', () => {
  it('reads the default file only when no file is given, then merges inline configs over it', async () => {
    const defaultFile = join(dir, 'mcp.json');
    const other = join(dir, 'other.json');
    await writeFile(defaultFile, JSON.stringify({ mcpServers: { a: { command: 'default-a' } } }));
    await writeFile(
      other,
      JSON.stringify({ mcpServers: { b: { command: 'other-b' }, c: { command: 'other-c' } } }),
    );

    expect(Object.keys(await loadMcpConfig({ defaultFile }))).toEqual(['a']);
    const merged = await loadMcpConfig({
      defaultFile,
      files: [other],
      inline: [JSON.stringify({ mcpServers: { c: { command: 'inline-c' } } })],
    });
    expect(Object.keys(merged)).toEqual(['b', 'c']);
    expect(merged.c).toMatchObject({ command: 'inline-c' });
  });

  it('treats a missing default file as no servers, but a missing named file as an error', async () => {
    expect(await loadMcpConfig({ defaultFile: join(dir, 'absent.json') })).toEqual({});
    await expect(loadMcpConfig({ files: [join(dir, 'absent.json')] })).rejects.toThrow(/does not exist/);
  });

  it('names the inline config that is wrong', async () => {
    await expect(loadMcpConfig({ inline: ['{"mcpServers":{}}', '{"mcpServers":{"s":{}}}'] })).rejects.toThrow(
      /--mcp-config #2: MCP server "s"/,
    );
  });
});
