import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport, SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig, RemoteServerConfig, StdioServerConfig } from './config.js';
import type { OAuthStore } from './oauth/oauth-store.js';
import { AuthorizationRequiredError, StoredOAuthProvider } from './oauth/stored-oauth-provider.js';
import { ProcessStdioTransport } from './process-stdio-transport.js';
import type { RemoteTool } from './remote-tool.js';

export type TransportKind = 'stdio' | 'streamable-http' | 'sse';

export interface ClientInfo {
  name: string;
  version: string;
}

/** A live MCP client session with one server. */
export interface ServerConnection {
  readonly client: Client;
  readonly transport: TransportKind;
  /** Called once if the connection ends by itself (the process exited, the stream closed), never after `close()`. */
  onLost: ((reason: string) => void) | undefined;
  close(): Promise<void>;
}

/** The server wants an authorization the user has to give (`kimi-ts mcp auth NAME`). */
export class ServerNeedsAuthorization extends Error {
  override name = 'ServerNeedsAuthorization';
}

export interface OpenConnectionOptions {
  clientInfo: ClientInfo;
  /** Aborting stops the attempt and releases everything it started (the process, the stream). */
  signal: AbortSignal;
  /** Upper bound for the MCP handshake. */
  timeoutMs: number;
  /** Where OAuth credentials live; needed for servers with `auth: "oauth"`. */
  oauthStore?: OAuthStore | undefined;
}

/**
 * Connects to a configured server. Throws `ServerNeedsAuthorization` when it needs an authorization
 * the user must give, the abort reason when `signal` aborts, and an Error saying what went wrong
 * otherwise. A remote server with no transport given is tried with Streamable HTTP first, then SSE.
 */
export async function openConnection(
  config: McpServerConfig,
  options: OpenConnectionOptions,
): Promise<ServerConnection> {
  if (config.kind === 'stdio') return connectStdio(config, options);
  if (config.transport !== 'auto') return connectRemote(config, config.transport, options);
  try {
    return await connectRemote(config, 'streamable-http', options);
  } catch (streamableError) {
    if (options.signal.aborted || streamableError instanceof ServerNeedsAuthorization) throw streamableError;
    try {
      return await connectRemote(config, 'sse', options);
    } catch (sseError) {
      if (options.signal.aborted || sseError instanceof ServerNeedsAuthorization) throw sseError;
      throw new Error(
        `Streamable HTTP failed (${errorText(streamableError)}); the SSE fallback failed too (${errorText(sseError)})`,
      );
    }
  }
}

async function connectStdio(
  config: StdioServerConfig,
  options: OpenConnectionOptions,
): Promise<ServerConnection> {
  const transport = new ProcessStdioTransport({
    command: config.command,
    args: config.args,
    env: config.env,
    cwd: config.cwd,
  });
  const describeExit = (): string => {
    const exit = transport.exitDescription ?? 'closed its output';
    const stderr = transport.stderrTail;
    return `the server process ${exit}${stderr ? `; its last output on stderr: ${stderr}` : ''}`;
  };
  return connectWith(transport, 'stdio', options, {
    describeFailure: (error) => {
      if (isSpawnError(error)) return `could not start \`${config.command}\`: ${error.message}`;
      if (transport.exitDescription) return `${describeExit()} (before the MCP handshake finished)`;
      return errorText(error);
    },
    describeLoss: describeExit,
  });
}

async function connectRemote(
  config: RemoteServerConfig,
  kind: 'streamable-http' | 'sse',
  options: OpenConnectionOptions,
): Promise<ServerConnection> {
  const headers: Record<string, string> = { ...config.headers };
  if (config.auth?.type === 'bearer') headers.Authorization = `Bearer ${config.auth.token}`;
  let authProvider: StoredOAuthProvider | undefined;
  if (config.auth?.type === 'oauth') {
    if (!options.oauthStore)
      throw new ServerNeedsAuthorization('no place to keep OAuth credentials was given');
    if (!(await options.oauthStore.hasTokens(config.url))) {
      throw new ServerNeedsAuthorization('the server needs an OAuth authorization and none is stored yet');
    }
    authProvider = await StoredOAuthProvider.open(options.oauthStore, config.url);
  }
  const url = new URL(config.url);
  const transport: Transport =
    kind === 'sse'
      ? new SSEClientTransport(url, { requestInit: { headers }, authProvider })
      : new StreamableHTTPClientTransport(url, { requestInit: { headers }, authProvider });
  return connectWith(transport, kind, options, {
    describeFailure: (error) => {
      if (error instanceof AuthorizationRequiredError || error instanceof UnauthorizedError) {
        throw new ServerNeedsAuthorization(
          authProvider
            ? 'the stored authorization was refused and could not be renewed'
            : 'the server requires authorization',
        );
      }
      const status = httpStatusOf(error);
      if (status === 401 || status === 403) {
        throw new ServerNeedsAuthorization(
          authProvider
            ? `the server refused the stored authorization (HTTP ${status})`
            : `the server refused the request (HTTP ${status}): it needs credentials (headers, or "auth": "oauth")`,
        );
      }
      const text = errorText(error).replace(/:\s*$/, '');
      return status !== undefined && status > 0 ? `HTTP ${status}: ${text}` : text;
    },
    describeLoss: () => 'the connection to the server closed',
  });
}

interface ConnectionHooks {
  /** Turns a failed connect into the reason shown to the user (or throws a more specific error). */
  describeFailure(error: unknown): string;
  describeLoss(): string;
}

async function connectWith(
  transport: Transport,
  kind: TransportKind,
  options: OpenConnectionOptions,
  hooks: ConnectionHooks,
): Promise<ServerConnection> {
  const { signal } = options;
  signal.throwIfAborted();
  const client = new Client(options.clientInfo, { capabilities: {} });
  let closing = false;
  const connection: ServerConnection = {
    client,
    transport: kind,
    onLost: undefined,
    async close() {
      closing = true;
      await client.close().catch(() => undefined);
    },
  };
  // The SDK's request timeout covers the handshake, but not a transport that never starts.
  const stopOnAbort = (): void => void transport.close().catch(() => undefined);
  signal.addEventListener('abort', stopOnAbort, { once: true });
  try {
    // Raced against the signal too: a transport whose start never settles once closed (SSE waiting
    // for its endpoint event) must not hold the attempt forever.
    await untilAborted(client.connect(transport, { signal, timeout: options.timeoutMs }), signal);
  } catch (error) {
    closing = true;
    await client.close().catch(() => undefined);
    signal.throwIfAborted();
    throw new Error(hooks.describeFailure(error));
  } finally {
    signal.removeEventListener('abort', stopOnAbort);
  }
  client.onclose = () => {
    if (closing) return;
    closing = true;
    connection.onLost?.(hooks.describeLoss());
  };
  return connection;
}

/** Every tool the server offers (following pagination). */
export async function listAllTools(
  client: Client,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<RemoteTool[]> {
  const tools: RemoteTool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined, { signal, timeout: timeoutMs });
    for (const tool of page.tools) {
      tools.push({
        name: tool.name,
        description: tool.description,
        inputSchema: tool.inputSchema,
        taskOnly: tool.execution?.taskSupport === 'required',
      });
    }
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

/** True for the SDK's "the connection went away" error (the server died mid-request). */
export function isConnectionClosedError(error: unknown): boolean {
  return error instanceof McpError && error.code === ErrorCode.ConnectionClosed;
}

/** True for the SDK's typed request timeout. */
export function isRequestTimeoutError(error: unknown): boolean {
  return error instanceof McpError && error.code === ErrorCode.RequestTimeout;
}

function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  work.catch(() => undefined);
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function httpStatusOf(error: unknown): number | undefined {
  if (error instanceof StreamableHTTPError || error instanceof SseError) return error.code;
  return undefined;
}

function isSpawnError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).syscall === 'string';
}

export function errorText(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}
