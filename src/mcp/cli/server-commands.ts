import type { McpServerConfig } from '../config.js';
import { errorText, listAllTools, openConnection, ServerNeedsAuthorization } from '../connection.js';
import { DEFAULT_STARTUP_TIMEOUT_MS } from '../mcp-manager.js';
import type { RemoteTool } from '../mcp-tool.js';
import { authorizeServer } from '../oauth/authorize.js';
import { OAuthStore } from '../oauth/oauth-store.js';
import { redactSecrets, secretsOf } from '../redact.js';
import { CommandFailure, type McpCommandContext, type McpCommandResult, runCommand } from './command-io.js';
import { readMcpJson, requireRemote, requireServer } from './mcp-json-file.js';

const DESCRIPTION_WIDTH = 60;

/** `kimi-ts mcp auth NAME`: the browser OAuth flow, then a test connection with the new tokens. */
export function mcpAuth(name: string, ctx: McpCommandContext): Promise<McpCommandResult> {
  return runCommand(ctx, async (io) => {
    const file = await readMcpJson(ctx.home, ctx.env);
    const server = requireRemote(file, name);
    if (server.auth?.type !== 'oauth') {
      throw new CommandFailure(
        `MCP server "${name}" does not use OAuth: set "auth": "oauth" for it (or add it again with \`--auth oauth\`).`,
      );
    }
    const store = OAuthStore.forHome(ctx.home);
    io.out(`Authorizing with "${name}" (${server.url})...`);
    try {
      await authorizeServer({
        serverUrl: server.url,
        store,
        log: io.out,
        openUrl: ctx.openUrl,
        signal: ctx.signal,
      });
    } catch (error) {
      throw new CommandFailure(`Authorization failed: ${redactSecrets(errorText(error), secretsOf(server))}`);
    }
    const tools = await connectAndList(server, ctx, store);
    io.out(`Authorized "${name}": it offers ${tools.length} tool${tools.length === 1 ? '' : 's'}.`);
    return 0;
  });
}

/** `kimi-ts mcp test NAME`: connects like a session would and lists the server's tools. */
export function mcpTest(name: string, ctx: McpCommandContext): Promise<McpCommandResult> {
  return runCommand(ctx, async (io) => {
    const file = await readMcpJson(ctx.home, ctx.env);
    const server = requireServer(file, name);
    io.out(`Testing the connection to "${name}"...`);
    const tools = await connectAndList(server, ctx, OAuthStore.forHome(ctx.home), name);
    io.out(`Connected to "${name}": ${tools.length} tool${tools.length === 1 ? '' : 's'}.`);
    for (const tool of tools) {
      const summary = (tool.description ?? '').replace(/\s+/g, ' ').trim();
      const short =
        summary.length > DESCRIPTION_WIDTH ? `${summary.slice(0, DESCRIPTION_WIDTH - 3)}...` : summary;
      io.out(`  - ${tool.name}${short ? `: ${short}` : ''}`);
    }
    return 0;
  });
}

async function connectAndList(
  server: McpServerConfig,
  ctx: McpCommandContext,
  store: OAuthStore,
  name?: string,
): Promise<RemoteTool[]> {
  const timeoutMs = DEFAULT_STARTUP_TIMEOUT_MS;
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = ctx.signal ? AbortSignal.any([ctx.signal, deadline]) : deadline;
  let connection: Awaited<ReturnType<typeof openConnection>> | undefined;
  try {
    connection = await openConnection(server, {
      clientInfo: ctx.clientInfo ?? { name: 'kimi-ts', version: '0.0.0' },
      signal,
      timeoutMs,
      oauthStore: store,
    });
    return await listAllTools(connection.client, signal, timeoutMs);
  } catch (error) {
    const hint =
      error instanceof ServerNeedsAuthorization && name ? ` Run \`kimi-ts mcp auth ${name}\`.` : '';
    const reason = deadline.aborted ? `no answer within ${timeoutMs / 1000} s` : errorText(error);
    throw new CommandFailure(`Connection failed: ${redactSecrets(reason, secretsOf(server))}.${hint}`);
  } finally {
    await connection?.close();
  }
}
