import { join } from 'node:path';
import { mcpConfigFile } from '../../mcp/cli/mcp-json-file.js';
import { loadMcpConfig } from '../../mcp/config.js';
import type { McpManager, McpProblem } from '../../mcp/mcp-manager.js';
import { say } from '../../soul/slash-commands.js';
import { VERSION } from '../../version.js';
import type { MCPStatusSnapshot } from '../../wire/events.js';
import { addMcpSecrets } from '../collect-secrets.js';
import type { Extension } from '../extension.js';

export interface McpExtensionOptions {
  /** `--mcp-config-file` values; none means `<home>/mcp.json` if it exists. */
  files: readonly string[];
  /** `--mcp-config` values. */
  inline: readonly string[];
  /** Where connection problems are reported once loading ends (stderr in the CLI). */
  report?: ((text: string) => void) | undefined;
}

/**
 * MCP servers of the session: connected in the background once the agent's own tools are loaded, so
 * startup never waits for them; every turn waits for loading before its first step.
 */
export function mcpExtension(options: McpExtensionOptions): Extension {
  let manager: McpManager | null = null;
  return {
    name: 'mcp',
    async setup({ session, config, home, env, host, deps }) {
      const servers = await loadMcpConfig({
        files: options.files,
        inline: options.inline,
        defaultFile: mcpConfigFile(home),
        env,
      });
      if (deps.secrets) addMcpSecrets(deps.secrets, servers);
      host.addSlashCommand({
        name: 'mcp',
        description: 'The MCP servers of the session: their state and tools',
        aliases: [],
        async run() {
          say(
            manager
              ? describeMcpStatus(manager.statusSnapshot(), manager.problems())
              : 'No MCP servers are configured (~/.kimi-ts/mcp.json, --mcp-config-file, --mcp-config).',
          );
        },
      });
      if (Object.keys(servers).length === 0) return;
      // The MCP SDK loads only for sessions that have servers.
      const [{ McpManager }, { OAuthStore }, { mcpLoadingGate }] = await Promise.all([
        import('../../mcp/mcp-manager.js'),
        import('../../mcp/oauth/oauth-store.js'),
        import('../../mcp/loading-gate.js'),
      ]);
      manager = new McpManager({
        servers,
        toolCallTimeoutMs: config.mcp.client.tool_call_timeout_ms,
        outputDir: join(session.dir, 'mcp-outputs'),
        oauthStore: OAuthStore.forHome(home),
        clientInfo: { name: 'kimi-ts', version: VERSION },
      });
      const gate = mcpLoadingGate(manager);
      let reported = false;
      host.addBeforeFirstStep(async (signal) => {
        await gate(signal);
        if (reported || !manager) return;
        reported = true;
        for (const problem of manager.problems())
          options.report?.(`MCP server ${problem.server}: ${problem.message}\n`);
      });
      host.addCloser(async () => {
        await manager?.close();
      });
    },
    async afterToolsLoaded({ toolset }) {
      manager?.start(toolset);
    },
  };
}

/** `/mcp`'s text: a summary line, then each server with its state and tools, then what went wrong. */
function describeMcpStatus(status: MCPStatusSnapshot, problems: readonly McpProblem[]): string {
  const lines = [
    `MCP servers: ${status.connected} of ${status.total} connected, ${status.tools} tools${status.loading ? ' (still connecting)' : ''}`,
    ...status.servers.map(
      (server) =>
        `- ${server.name}: ${server.status}${server.tools.length > 0 ? ` (${server.tools.join(', ')})` : ''}`,
    ),
  ];
  if (problems.length > 0) lines.push('', ...problems.map((problem) => problem.message));
  return lines.join('\n');
}
