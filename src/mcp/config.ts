import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { builtOnFirstUse } from '../util/built-on-first-use.js';
import { expandEnvReferences } from './env-references.js';

/**
 * The `mcpServers` JSON shape shared by Kimi CLI (FastMCP's `MCPConfig`), Claude Code and most MCP
 * clients: a stdio server has `command`/`args`/`env`(/`cwd`), a remote one `url`/`headers`, plus
 * `transport` (Kimi CLI) or `type` (Claude Code), and `auth` ("oauth", or a bearer token as FastMCP
 * allows). Unknown keys are ignored so files written for other clients load as they are.
 */

export interface StdioServerConfig {
  kind: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string | undefined;
}

/** `auto` tries Streamable HTTP first and falls back to the legacy SSE transport. */
export type RemoteTransport = 'streamable-http' | 'sse' | 'auto';

export type RemoteAuth = { type: 'oauth' } | { type: 'bearer'; token: string } | null;

export interface RemoteServerConfig {
  kind: 'remote';
  url: string;
  headers: Record<string, string>;
  transport: RemoteTransport;
  auth: RemoteAuth;
}

export type McpServerConfig = StdioServerConfig | RemoteServerConfig;

export type McpServers = Record<string, McpServerConfig>;

/** An MCP config that cannot be used; the message names the source (file or flag) and the server. */
export class McpConfigError extends Error {
  override name = 'McpConfigError';
  constructor(
    message: string,
    readonly source: string,
    readonly server: string | null = null,
  ) {
    super(message);
  }
}

/**
 * The schemas of an MCP config, built on first use: most sessions read no MCP config, and making them
 * at load was part of every start's time to the first model request.
 */
function buildSchemas() {
  const stringMap = z.record(z.string(), z.string());
  const transportName = z.enum(['stdio', 'http', 'streamable-http', 'streamable_http', 'sse']);

  const stdioEntry = z.looseObject({
    command: z.string().trim().min(1, 'must not be empty'),
    args: z.array(z.string()).default([]),
    env: stringMap.default({}),
    cwd: z.string().optional(),
    transport: transportName.optional(),
    type: transportName.optional(),
  });

  const remoteEntry = z.looseObject({
    url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
    headers: stringMap.default({}),
    transport: transportName.optional(),
    type: transportName.optional(),
    auth: z.string().nullish(),
  });

  const configFile = z.looseObject({
    mcpServers: z.record(z.string(), z.unknown()).default({}),
  });
  return { stdioEntry, remoteEntry, configFile };
}

const schemas = builtOnFirstUse(buildSchemas);

/** Parses the text of one `mcpServers` JSON document. `source` names it in errors. */
export function parseMcpConfig(
  text: string,
  source: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): McpServers {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new McpConfigError(
      `${source}: not valid JSON (${error instanceof Error ? error.message : String(error)})`,
      source,
    );
  }
  const file = schemas().configFile.safeParse(json, { jitless: true });
  if (!file.success) {
    throw new McpConfigError(
      `${source}: expected an object with "mcpServers" (${describeIssues(file.error)})`,
      source,
    );
  }
  const servers: McpServers = {};
  for (const [name, entry] of Object.entries(file.data.mcpServers)) {
    servers[name] = parseServerEntry(name, entry, source, env);
  }
  return servers;
}

function parseServerEntry(
  name: string,
  entry: unknown,
  source: string,
  env: Readonly<Record<string, string | undefined>>,
): McpServerConfig {
  const fail = (why: string): never => {
    throw new McpConfigError(`${source}: MCP server "${name}": ${why}`, source, name);
  };
  if (name.trim() === '') fail('the server name must not be empty');
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) fail('expected an object');
  const record = entry as Record<string, unknown>;
  const hasCommand = 'command' in record;
  const hasUrl = 'url' in record;
  if (hasCommand === hasUrl) {
    fail('give either "command" (a stdio server) or "url" (a remote server), not both or neither');
  }
  const expand = (value: string): string => expandEnvReferences(value, env);
  const expandMap = (map: Record<string, string>): Record<string, string> =>
    Object.fromEntries(Object.entries(map).map(([key, value]) => [key, expand(value)]));

  if (hasCommand) {
    const parsed = schemas().stdioEntry.safeParse(record);
    if (!parsed.success) return fail(describeIssues(parsed.error));
    const declared = parsed.data.transport ?? parsed.data.type;
    if (declared && declared !== 'stdio') fail(`transport "${declared}" needs a "url", not a "command"`);
    return {
      kind: 'stdio',
      command: expand(parsed.data.command),
      args: parsed.data.args.map(expand),
      env: expandMap(parsed.data.env),
      cwd: parsed.data.cwd === undefined ? undefined : expand(parsed.data.cwd),
    };
  }

  const expanded = { ...record, url: typeof record.url === 'string' ? expand(record.url) : record.url };
  const parsed = schemas().remoteEntry.safeParse(expanded);
  if (!parsed.success) return fail(describeIssues(parsed.error));
  const declared = parsed.data.transport ?? parsed.data.type;
  if (declared === 'stdio') fail('transport "stdio" needs a "command", not a "url"');
  const transport: RemoteTransport =
    declared === undefined ? 'auto' : declared === 'sse' ? 'sse' : 'streamable-http';
  const auth = parsed.data.auth?.trim();
  return {
    kind: 'remote',
    url: parsed.data.url,
    headers: expandMap(parsed.data.headers),
    transport,
    auth: !auth ? null : auth === 'oauth' ? { type: 'oauth' } : { type: 'bearer', token: expand(auth) },
  };
}

export interface McpConfigSources {
  /** `--mcp-config-file` values, in order. When there are none, `defaultFile` is read if it exists. */
  files?: readonly string[] | undefined;
  /** `--mcp-config` values (JSON text), in order; read after the files. */
  inline?: readonly string[] | undefined;
  /** `<home>/mcp.json`. */
  defaultFile?: string | undefined;
  env?: Readonly<Record<string, string | undefined>> | undefined;
}

/** The MCP config as a session read it at start: its servers, or why it did not load. */
export type McpConfigReading =
  | { readonly ok: true; readonly servers: McpServers }
  | { readonly ok: false; readonly error: unknown };

/** loadMcpConfig, its failure kept as a value. */
export async function readMcpConfig(sources: McpConfigSources): Promise<McpConfigReading> {
  try {
    return { ok: true, servers: await loadMcpConfig(sources) };
  } catch (error) {
    return { ok: false, error };
  }
}

/**
 * Reads and merges every MCP config source: the files given (or the default file when none is
 * given and it exists), then the inline JSON strings. A server defined again later replaces the
 * earlier definition.
 */
export async function loadMcpConfig(sources: McpConfigSources): Promise<McpServers> {
  const env = sources.env ?? process.env;
  const merged: McpServers = {};
  const files = sources.files ?? [];
  if (files.length > 0) {
    for (const file of files) Object.assign(merged, parseMcpConfig(await readConfigFile(file), file, env));
  } else if (sources.defaultFile) {
    const text = await readConfigFile(sources.defaultFile, { missingIsEmpty: true });
    if (text !== null) Object.assign(merged, parseMcpConfig(text, sources.defaultFile, env));
  }
  (sources.inline ?? []).forEach((text, index) => {
    Object.assign(merged, parseMcpConfig(text, `--mcp-config #${index + 1}`, env));
  });
  return merged;
}

async function readConfigFile(path: string): Promise<string>;
async function readConfigFile(path: string, options: { missingIsEmpty: true }): Promise<string | null>;
async function readConfigFile(path: string, options?: { missingIsEmpty: true }): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && options?.missingIsEmpty) return null;
    const why = code === 'ENOENT' ? 'the file does not exist' : (error as Error).message;
    throw new McpConfigError(`${path}: cannot read the MCP config file: ${why}`, path);
  }
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length > 0 ? `"${issue.path.join('.')}" ${issue.message}` : issue.message))
    .join('; ');
}
