import { join } from 'node:path';
import type { McpManager, McpProblem } from '../../mcp/mcp-manager.js';
import { type SlashCommand, say } from '../../soul/slash-commands.js';
import { sendOn } from '../../toolset/run-scope.js';
import { VERSION } from '../../version.js';
import type { MCPStatusSnapshot } from '../../wire/events.js';
import { addMcpSecrets } from '../collect-secrets.js';
import { defineExtension, type ExtensionContribution } from '../extension.js';

/**
 * MCP servers of the session: connected in the background once the agent's own tools are loaded, so
 * startup never waits for them; every turn waits for loading before its first step.
 */
export function mcpExtension() {
  return defineExtension({
    name: 'mcp',
    uses: ['session', 'config', 'home', 'toolset', 'warn', 'rootDeps', 'mcpConfig'],
    async setup({
      session,
      config,
      home,
      toolset,
      warn,
      rootDeps,
      mcpConfig,
    }): Promise<ExtensionContribution> {
      let manager: McpManager | null = null;
      if (!mcpConfig.ok) throw mcpConfig.error;
      const { servers } = mcpConfig;
      if (rootDeps.secrets) addMcpSecrets(rootDeps.secrets, servers);
      const command: SlashCommand = {
        name: 'mcp',
        description: 'The MCP servers of the session: their state and tools',
        aliases: [],
        async run({ soul }) {
          say(
            soul,
            manager
              ? describeMcpStatus(manager.statusSnapshot(), manager.problems())
              : 'No MCP servers are configured (~/.kimi-ts/mcp.json, --mcp-config-file, --mcp-config).',
          );
        },
      };
      if (Object.keys(servers).length === 0) return { slashCommands: [command] };
      // The MCP SDK loads only for sessions that have servers.
      const [{ McpManager }, { OAuthStore }, { mcpLoadingGate }] = await Promise.all([
        import('../../mcp/mcp-manager.js'),
        import('../../mcp/oauth/oauth-store.js'),
        import('../../mcp/loading-gate.js'),
      ]);
      const started = new McpManager({
        servers,
        toolCallTimeoutMs: config.mcp.client.tool_call_timeout_ms,
        outputDir: join(session.dir, 'mcp-outputs'),
        oauthStore: OAuthStore.forHome(home, (value, source) => rootDeps.secrets?.add(value, source)),
        clientInfo: { name: 'kimi-ts', version: VERSION },
      });
      manager = started;
      const gate = mcpLoadingGate(started);
      let reported = false;
      return {
        slashCommands: [command],
        beforeFirstStep: async (signal, run) => {
          await gate(signal, (message) => sendOn(run.wire, message));
          if (reported) return;
          reported = true;
          for (const problem of started.problems())
            warn({ kind: 'mcp-server-problem', server: problem.server, message: problem.message });
        },
        afterToolsLoaded: async () => {
          started.start(toolset);
        },
        close: () => started.close(),
      };
    },
  });
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
