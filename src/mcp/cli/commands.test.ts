import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type AuthorizationServer,
  followAuthorization,
  startAuthorizationServer,
} from '../test-support/authorization-server.js';
import { FAULT_SERVER } from '../test-support/everything-server.js';
import { type HttpMcpServer, startHttpMcpServer } from '../test-support/http-mcp-server.js';
import { buildMcpCommand } from './build-mcp-command.js';
import { mcpAdd, mcpList } from './edit-commands.js';
import { mcpAuth, mcpTest } from './server-commands.js';

let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'kimi-ts-mcp-cli-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

/** Runs `kimi-ts mcp <args>` through the commander sub-program; returns exit code and output. */
async function run(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  let code = 0;
  const command = buildMcpCommand({
    home,
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    onExit: (exitCode) => {
      code = exitCode;
    },
  });
  command.exitOverride();
  for (const sub of command.commands)
    sub.exitOverride().configureOutput({ writeErr: (text) => err.push(text.trim()) });
  try {
    await command.parseAsync(args, { from: 'user' });
  } catch {
    code = code || 1;
  }
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('add, list, remove', () => {
  it('adds stdio and http servers to mcp.json and lists them', async () => {
    expect(await run('add', '-e', 'A=1', 'local', '--', 'npx', '-y', 'some-server')).toMatchObject({
      code: 0,
      out: `Added MCP server "local" in ${join(home, 'mcp.json')}.`,
    });
    expect(
      (
        await run(
          'add',
          '-t',
          'http',
          '-H',
          'X-Key: k 1',
          '-a',
          'oauth',
          'linear',
          'https://mcp.linear.app/mcp',
        )
      ).code,
    ).toBe(0);
    expect(JSON.parse(await readFile(join(home, 'mcp.json'), 'utf8'))).toEqual({
      mcpServers: {
        local: { command: 'npx', args: ['-y', 'some-server'], env: { A: '1' } },
        linear: {
          url: 'https://mcp.linear.app/mcp',
          transport: 'http',
          headers: { 'X-Key': 'k 1' },
          auth: 'oauth',
        },
      },
    });
    expect((await stat(join(home, 'mcp.json'))).mode & 0o777).toBe(0o600);

    const listed = await run('list');
    expect(listed.out).toBe(
      [
        `MCP config file: ${join(home, 'mcp.json')}`,
        '  local (stdio): npx -y some-server',
        '  linear (http): https://mcp.linear.app/mcp [OAuth: not authorized - run: kimi-ts mcp auth linear]',
      ].join('\n'),
    );
  });

  it('keeps what it does not manage and removes only the named server', async () => {
    await writeFile(
      join(home, 'mcp.json'),
      JSON.stringify({
        other: true,
        mcpServers: { a: { command: 'a', timeout: 5 }, b: { url: 'http://127.0.0.1:1/mcp' } },
      }),
    );
    expect(await run('remove', 'b')).toMatchObject({ code: 0 });
    expect(JSON.parse(await readFile(join(home, 'mcp.json'), 'utf8'))).toEqual({
      other: true,
      mcpServers: { a: { command: 'a', timeout: 5 } },
    });
    expect(await run('remove', 'b')).toMatchObject({
      code: 1,
      err: `MCP server "b" is not in ${join(home, 'mcp.json')}.`,
    });
  });

  it.each([
    [['add', 'x'], /Give the command that starts the server after `--`/],
    [['add', '-H', 'A: b', 'x', '--', 'cmd'], /--header only applies to http and sse servers/],
    [['add', '-t', 'http', '-e', 'A=1', 'x', 'http://h/mcp'], /--env only applies to stdio servers/],
    [['add', '-t', 'http', 'x', 'http://a', 'http://b'], /exactly one URL/],
    [['add', '-t', 'http', 'x', 'not a url'], /must be an http\(s\) URL/],
    [['add', '-e', 'NOEQUALS', 'x', '--', 'cmd'], /--env "NOEQUALS" is not of the form KEY=VALUE/],
  ])('refuses %j with a clear message', async (args, message) => {
    const result = await run(...args);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(message);
  });

  it('says so when nothing is configured, and names the broken file', async () => {
    expect((await mcpList({ home })).stdout).toMatch(/No MCP servers configured/);
    await writeFile(join(home, 'mcp.json'), '{"mcpServers":{"bad":{}}}');
    const result = await mcpList({ home });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/mcp\.json: MCP server "bad": give either/);
  });
});

describe('test', () => {
  it('connects and lists the tools', async () => {
    await mcpAdd({ name: 'faults', target: [process.execPath, FAULT_SERVER] }, { home });
    const result = await mcpTest('faults', { home });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/Connected to "faults": 10 tools\./);
    expect(result.stdout).toContain('  - echo_text: Returns the text it is given.');
  });

  it('fails with the reason when the server cannot start', async () => {
    await mcpAdd({ name: 'broken', target: ['kimi-ts-no-such-command'] }, { home });
    const result = await mcpTest('broken', { home });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/Connection failed: could not start `kimi-ts-no-such-command`/);
  });
});

describe('auth and reset-auth', () => {
  let authServer: AuthorizationServer;
  let mcpServer: HttpMcpServer;
  beforeAll(async () => {
    authServer = await startAuthorizationServer();
    mcpServer = await startHttpMcpServer({
      acceptsToken: (token) => authServer.accepts(token),
      authorizationServer: authServer.url,
    });
  });
  afterAll(async () => {
    await Promise.all([authServer.close(), mcpServer.close()]);
  });

  it('authorizes in the browser, shows the server as authorized, and forgets it on reset-auth', async () => {
    await mcpAdd({ name: 'secure', target: [mcpServer.url], transport: 'http', auth: 'oauth' }, { home });
    const lines: string[] = [];
    const authorized = await mcpAuth('secure', {
      home,
      openUrl: followAuthorization,
      out: (line) => lines.push(line),
    });
    expect(authorized.exitCode).toBe(0);
    expect(lines[0]).toBe(`Authorizing with "secure" (${mcpServer.url})...`);
    expect(lines.at(-1)).toBe('Authorized "secure": it offers 2 tools.');
    expect((await run('list')).out).toContain(`secure (http): ${mcpServer.url} [OAuth: authorized]`);
    expect((await run('test', 'secure')).out).toContain('  - whoami: Says which token called it.');

    expect((await run('reset-auth', 'secure')).out).toBe('Removed the stored OAuth credentials of "secure".');
    expect((await run('list')).out).toContain('[OAuth: not authorized - run: kimi-ts mcp auth secure]');
    const untested = await run('test', 'secure');
    expect(untested.code).toBe(1);
    expect(untested.err).toMatch(/Run `kimi-ts mcp auth secure`\./);
  });

  it('refuses servers that do not use OAuth', async () => {
    await mcpAdd({ name: 'plain', target: [mcpServer.url], transport: 'http' }, { home });
    const result = await mcpAuth('plain', { home });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/does not use OAuth/);
  });
});
