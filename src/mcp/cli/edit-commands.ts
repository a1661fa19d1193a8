import { type McpServerConfig, parseMcpConfig } from '../config.js';
import { OAuthStore } from '../oauth/oauth-store.js';
import { CommandFailure, type McpCommandContext, type McpCommandResult, runCommand } from './command-io.js';
import { readMcpJson, requireRemote, requireServer, writeMcpJson } from './mcp-json-file.js';

export type AddTransport = 'stdio' | 'http' | 'sse';

export interface McpAddArgs {
  name: string;
  /** For stdio: the command and its arguments (given after `--`). For http/sse: the URL. */
  target: readonly string[];
  transport?: AddTransport | undefined;
  /** `KEY=VALUE`, stdio only. */
  env?: readonly string[] | undefined;
  /** `KEY: VALUE`, http/sse only. */
  header?: readonly string[] | undefined;
  /** `oauth` (or a bearer token), http/sse only. */
  auth?: string | undefined;
}

/** `kimi-ts mcp add`: adds (or replaces) a server in `<home>/mcp.json`. */
export function mcpAdd(args: McpAddArgs, ctx: McpCommandContext): Promise<McpCommandResult> {
  return runCommand(ctx, async (io) => {
    const transport = args.transport ?? 'stdio';
    if (!['stdio', 'http', 'sse'].includes(transport)) {
      throw new CommandFailure(`Unknown transport "${transport}": use stdio, http or sse.`);
    }
    if (!args.name.trim()) throw new CommandFailure('The server name must not be empty.');
    let entry: Record<string, unknown>;
    if (transport === 'stdio') {
      if (args.header?.length) throw new CommandFailure('--header only applies to http and sse servers.');
      if (args.auth) throw new CommandFailure('--auth only applies to http and sse servers.');
      const [command, ...commandArgs] = args.target;
      if (!command) {
        throw new CommandFailure(
          'Give the command that starts the server after `--`, e.g. `-- npx some-mcp-server`.',
        );
      }
      entry = { command, args: commandArgs };
      if (args.env?.length) entry.env = parsePairs(args.env, '=', '--env', 'KEY=VALUE');
    } else {
      if (args.env?.length) throw new CommandFailure('--env only applies to stdio servers.');
      if (args.target.length !== 1) {
        throw new CommandFailure(
          `Give exactly one URL for a ${transport} server (got ${args.target.length}).`,
        );
      }
      entry = { url: args.target[0], transport };
      if (args.header?.length) entry.headers = parsePairs(args.header, ':', '--header', 'KEY: VALUE');
      if (args.auth) entry.auth = args.auth;
    }
    // Check the entry as it will be read back before touching the file.
    parseMcpConfig(JSON.stringify({ mcpServers: { [args.name]: entry } }), 'the new entry', {});

    const file = await readMcpJson(ctx.home, ctx.env);
    const replaced = args.name in file.document.mcpServers;
    file.document.mcpServers[args.name] = entry;
    await writeMcpJson(file);
    io.out(`${replaced ? 'Replaced' : 'Added'} MCP server "${args.name}" in ${file.path}.`);
    return 0;
  });
}

/** `kimi-ts mcp remove NAME`. */
export function mcpRemove(name: string, ctx: McpCommandContext): Promise<McpCommandResult> {
  return runCommand(ctx, async (io) => {
    const file = await readMcpJson(ctx.home, ctx.env);
    requireServer(file, name);
    delete file.document.mcpServers[name];
    await writeMcpJson(file);
    io.out(`Removed MCP server "${name}" from ${file.path}.`);
    return 0;
  });
}

/** `kimi-ts mcp list`: every configured server, with its OAuth state where it uses OAuth. */
export function mcpList(ctx: McpCommandContext): Promise<McpCommandResult> {
  return runCommand(ctx, async (io) => {
    const file = await readMcpJson(ctx.home, ctx.env);
    io.out(`MCP config file: ${file.path}`);
    const entries = Object.entries(file.servers);
    if (entries.length === 0) {
      io.out('No MCP servers configured. Add one with `kimi-ts mcp add`.');
      return 0;
    }
    const store = OAuthStore.forHome(ctx.home);
    for (const [name, server] of entries) {
      io.out(`  ${name} ${await describeServer(name, server, store)}`);
    }
    return 0;
  });
}

/** `kimi-ts mcp reset-auth NAME`: forgets the server's OAuth tokens and registered client. */
export function mcpResetAuth(name: string, ctx: McpCommandContext): Promise<McpCommandResult> {
  return runCommand(ctx, async (io) => {
    const file = await readMcpJson(ctx.home, ctx.env);
    const server = requireRemote(file, name);
    const cleared = await OAuthStore.forHome(ctx.home).clear(server.url);
    io.out(
      cleared
        ? `Removed the stored OAuth credentials of "${name}".`
        : `No OAuth credentials were stored for "${name}".`,
    );
    return 0;
  });
}

async function describeServer(name: string, server: McpServerConfig, store: OAuthStore): Promise<string> {
  if (server.kind === 'stdio') return `(stdio): ${[server.command, ...server.args].join(' ')}`;
  const transport =
    server.transport === 'auto' ? 'http, sse fallback' : server.transport === 'sse' ? 'sse' : 'http';
  let line = `(${transport}): ${server.url}`;
  if (server.auth?.type === 'oauth') {
    line += (await store.hasTokens(server.url))
      ? ' [OAuth: authorized]'
      : ` [OAuth: not authorized - run: kimi-ts mcp auth ${name}]`;
  }
  return line;
}

function parsePairs(
  items: readonly string[],
  separator: string,
  option: string,
  shape: string,
): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (const item of items) {
    const at = item.indexOf(separator);
    if (at === -1) throw new CommandFailure(`${option} "${item}" is not of the form ${shape}.`);
    const key = item.slice(0, at).trim();
    if (!key) throw new CommandFailure(`${option} "${item}" has an empty key.`);
    pairs[key] = separator === ':' ? item.slice(at + 1).trim() : item.slice(at + 1);
  }
  return pairs;
}
