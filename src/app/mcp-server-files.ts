import { resolve } from 'node:path';
import type { McpServers } from '../mcp/config.js';
import { filesNamedByWords } from './files-named-by-words.js';

/**
 * The files the stdio MCP servers' commands name (`sh mcp/server.sh`, `node ./tools/mcp.mjs`): every
 * word of `command` and `args` that names an existing file, relative to the server's `cwd` (itself
 * relative to kimi-ts's own folder, where a server without one starts). Real paths. MCP servers start
 * outside the sandbox at every session start, so the sandbox keeps these read-only where they lie
 * inside the workspace, like a hook's script (src/policy/sandbox-agent-code.ts).
 */
export function mcpServerFiles(servers: McpServers, launchDir: string, home: string): string[] {
  const files = new Set<string>();
  for (const server of Object.values(servers)) {
    if (server.kind !== 'stdio') continue;
    const cwd = server.cwd === undefined ? launchDir : resolve(launchDir, server.cwd);
    for (const file of filesNamedByWords([server.command, ...server.args], cwd, home)) files.add(file);
  }
  return [...files];
}
