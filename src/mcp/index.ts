export { type BuildMcpCommandOptions, buildMcpCommand } from './cli/build-mcp-command.js';
export type { McpCommandContext, McpCommandResult } from './cli/command-io.js';
export {
  type AddTransport,
  type McpAddArgs,
  mcpAdd,
  mcpList,
  mcpRemove,
  mcpResetAuth,
} from './cli/edit-commands.js';
export { mcpConfigFile } from './cli/mcp-json-file.js';
export { mcpAuth, mcpTest } from './cli/server-commands.js';
export * from './config.js';
export type { ClientInfo, TransportKind } from './connection.js';
export { mcpLoadingGate } from './loading-gate.js';
export * from './mcp-manager.js';
export { createMcpTool, type McpToolOptions, type RemoteTool } from './mcp-tool.js';
export { type AuthorizeServerOptions, authorizeServer } from './oauth/authorize.js';
export { OAuthStore } from './oauth/oauth-store.js';
export { MCP_OUTPUT_BUDGET } from './result-conversion.js';
