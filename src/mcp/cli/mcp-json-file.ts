import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../../util/atomic-file.js';
import { type McpServerConfig, parseMcpConfig, type RemoteServerConfig } from '../config.js';
import { CommandFailure } from './command-io.js';

/** The user's MCP config file: `<home>/mcp.json`. */
export function mcpConfigFile(home: string): string {
  return join(home, 'mcp.json');
}

/** The file as written: raw entries (unknown keys kept) plus their parsed form. */
export interface McpJson {
  path: string;
  /** The whole document as written (no `${VAR}` expanded), to write back with only the entries we change. */
  document: Record<string, unknown> & { mcpServers: Record<string, unknown> };
  servers: Record<string, McpServerConfig>;
}

/** Reads `<home>/mcp.json` (an empty document when it does not exist). Throws McpConfigError when invalid. */
export async function readMcpJson(
  home: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<McpJson> {
  const path = mcpConfigFile(home);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return { path, document: { mcpServers: {} }, servers: {} };
  }
  const servers = parseMcpConfig(text, path, env);
  const document = JSON.parse(text) as McpJson['document'];
  document.mcpServers ??= {};
  return { path, document, servers };
}

/**
 * Writes the document back atomically (a temporary file renamed over the old one). The file may
 * hold API keys in headers or env, so it is created readable by the owner only.
 */
export async function writeMcpJson(file: McpJson): Promise<void> {
  await mkdir(dirname(file.path), { recursive: true });
  await writeFileAtomic(file.path, `${JSON.stringify(file.document, null, 2)}\n`, { mode: 0o600 });
}

export function requireServer(file: McpJson, name: string): McpServerConfig {
  const server = file.servers[name];
  if (!server) throw new CommandFailure(`MCP server "${name}" is not in ${file.path}.`);
  return server;
}

export function requireRemote(file: McpJson, name: string): RemoteServerConfig {
  const server = requireServer(file, name);
  if (server.kind !== 'remote')
    throw new CommandFailure(`MCP server "${name}" is a stdio server, not a remote one.`);
  return server;
}
