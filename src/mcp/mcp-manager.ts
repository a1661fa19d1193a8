import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { KimiToolset } from '../toolset/kimi-toolset.js';
import type { MCPStatusSnapshot } from '../wire/events.js';
import type { McpServerConfig, McpServers } from './config.js';
import {
  type ClientInfo,
  errorText,
  listAllTools,
  openConnection,
  type ServerConnection,
  ServerNeedsAuthorization,
  type TransportKind,
} from './connection.js';
import { createMcpTool, type McpToolHost, type RemoteTool } from './mcp-tool.js';
import type { OAuthStore } from './oauth/oauth-store.js';
import { redactSecrets, secretsOf } from './redact.js';
import {
  beginConnecting,
  type ConnectedServer,
  type ConnectingServer,
  initialState,
  isSettled,
  markConnected,
  markFailed,
  markUnauthorized,
  type PendingServer,
  type ServerState,
  type SkippedTool,
  toolsOf,
} from './server-state.js';

export const DEFAULT_TOOL_CALL_TIMEOUT_MS = 60_000;
export const DEFAULT_STARTUP_TIMEOUT_MS = 30_000;

/** Tool names every model API accepts. */
const USABLE_TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

export interface McpManagerOptions {
  servers: McpServers;
  /** `[mcp.client] tool_call_timeout_ms`. */
  toolCallTimeoutMs?: number | undefined;
  /** How long one server may take to connect and list its tools. */
  startupTimeoutMs?: number | undefined;
  /** Where full outputs of truncated results are kept (`<session dir>/mcp-outputs`). */
  outputDir?: string | undefined;
  /** OAuth credentials (`OAuthStore.forHome(home)`); servers with `auth: "oauth"` need it. */
  oauthStore?: OAuthStore | undefined;
  clientInfo?: ClientInfo | undefined;
  /** The command that authorizes a server, for messages. Default `kimi-ts mcp auth <name>`. */
  authCommand?: ((server: string) => string) | undefined;
}

/** Something the user should hear about: a server that failed or needs authorization, a tool left out. */
export interface McpProblem {
  server: string;
  kind: 'failed' | 'unauthorized' | 'tool_skipped';
  message: string;
}

interface ServerEntry {
  readonly name: string;
  readonly config: McpServerConfig;
  readonly secrets: string[];
  state: ServerState;
}

/**
 * The MCP servers of one session. `start` connects all of them concurrently in the background and
 * registers their tools in the toolset as each one is ready; a slow or broken server holds up
 * nobody but itself (each has its own startup timeout). A turn calls `waitForLoading` before its
 * first step. `close` ends every connection and every server process.
 */
export class McpManager {
  private readonly entries: ServerEntry[];
  private readonly options: McpManagerOptions;
  private readonly closeController = new AbortController();
  private readonly listeners = new Set<(snapshot: MCPStatusSnapshot) => void>();
  /** Which server registered each MCP tool name. */
  private readonly toolOwners = new Map<string, string>();
  private readonly closing = new Set<Promise<void>>();
  private loading: Promise<void> | null = null;

  constructor(options: McpManagerOptions) {
    this.options = options;
    this.entries = Object.entries(options.servers).map(([name, config]) => ({
      name,
      config,
      secrets: secretsOf(config),
      state: initialState(),
    }));
  }

  get serverNames(): string[] {
    return this.entries.map((entry) => entry.name);
  }

  /** Starts connecting every server; returns at once. Call once. */
  start(toolset: KimiToolset): void {
    if (this.loading) throw new Error('MCP loading was already started');
    if (this.closeController.signal.aborted) throw new Error('the MCP manager is closed');
    this.loading = Promise.all(
      this.entries.map((entry) => this.connect(entry, entry.state as PendingServer, toolset)),
    ).then(() => undefined);
  }

  /** Some server is still pending or connecting. */
  get isLoading(): boolean {
    return this.loading !== null && this.entries.some((entry) => !isSettled(entry.state));
  }

  /** Resolves once every server is connected, failed or unauthorized (at once if loading never started). */
  waitForLoading(signal?: AbortSignal): Promise<void> {
    const loading = this.loading ?? Promise.resolve();
    if (!signal) return loading;
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const onAbort = (): void => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      void loading.then(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      });
    });
  }

  /** The snapshot front ends show (the wire's `StatusUpdate.mcp_status`). */
  statusSnapshot(): MCPStatusSnapshot {
    const servers = this.entries.map((entry) => ({
      name: entry.name,
      status: entry.state.status,
      tools: [...toolsOf(entry.state)],
    }));
    return {
      loading: this.isLoading,
      connected: servers.filter((server) => server.status === 'connected').length,
      total: servers.length,
      tools: servers.reduce(
        (sum, server) => sum + (server.status === 'connected' ? server.tools.length : 0),
        0,
      ),
      servers,
    };
  }

  /** Failures, missing authorizations and skipped tools, each naming its server, with the reason. */
  problems(): McpProblem[] {
    const problems: McpProblem[] = [];
    for (const { name, state } of this.entries) {
      if (state.status === 'failed') {
        problems.push({
          server: name,
          kind: 'failed',
          message: `MCP server "${name}" failed: ${state.reason}`,
        });
      } else if (state.status === 'unauthorized') {
        problems.push({
          server: name,
          kind: 'unauthorized',
          message: `MCP server "${name}" is not authorized: ${state.reason}`,
        });
      }
      if (state.status === 'connected' || state.status === 'failed') {
        for (const skipped of state.skipped) {
          problems.push({
            server: name,
            kind: 'tool_skipped',
            message: `Tool "${skipped.name}" of MCP server "${name}" was not added: ${skipped.reason}`,
          });
        }
      }
    }
    return problems;
  }

  /** The transport a connected server uses (after the Streamable HTTP → SSE fallback), or null. */
  transportOf(server: string): TransportKind | null {
    const state = this.entries.find((entry) => entry.name === server)?.state;
    return state?.status === 'connected' ? state.connection.transport : null;
  }

  /** Calls `listener` with a fresh snapshot after every status change. Returns the unsubscribe function. */
  onStatusChange(listener: (snapshot: MCPStatusSnapshot) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stops connecting, closes every connection and ends every server process. */
  async close(): Promise<void> {
    if (!this.closeController.signal.aborted) this.closeController.abort(new Error('the session is closing'));
    await this.loading;
    for (const entry of this.entries) {
      if (entry.state.status === 'connected') this.track(entry.state.connection.close());
    }
    while (this.closing.size > 0) await Promise.all([...this.closing]);
  }

  private async connect(entry: ServerEntry, pending: PendingServer, toolset: KimiToolset): Promise<void> {
    const { config } = entry;
    const store = this.options.oauthStore;
    if (
      config.kind === 'remote' &&
      config.auth?.type === 'oauth' &&
      !(store && (await store.hasTokens(config.url)))
    ) {
      this.transition(
        entry,
        markUnauthorized(pending, this.authorizationHint(entry, 'no authorization is stored yet')),
      );
      return;
    }
    const connecting = beginConnecting(pending);
    this.transition(entry, connecting);

    const timeoutMs = this.options.startupTimeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS;
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new Error('startup timeout')), timeoutMs);
    const signal = AbortSignal.any([this.closeController.signal, deadline.signal]);
    let connection: ServerConnection | undefined;
    let lostWhileListing: string | undefined;
    try {
      connection = await openConnection(config, {
        clientInfo: this.options.clientInfo ?? { name: 'kimi-ts', version: '0.0.0' },
        signal,
        timeoutMs,
        oauthStore: store,
      });
      connection.onLost = (reason) => {
        lostWhileListing = reason;
      };
      const remoteTools = await listAllTools(connection.client, signal, timeoutMs);
      signal.throwIfAborted();
      this.register(entry, connecting, connection, remoteTools, toolset);
    } catch (error) {
      if (connection) this.track(connection.close());
      if (this.closeController.signal.aborted) return;
      if (error instanceof ServerNeedsAuthorization) {
        this.transition(entry, markUnauthorized(connecting, this.authorizationHint(entry, error.message)));
      } else {
        const reason = deadline.signal.aborted
          ? `it did not finish connecting within ${formatSeconds(timeoutMs)} (the startup timeout)`
          : redactSecrets(lostWhileListing ?? errorText(error), entry.secrets);
        this.transition(entry, markFailed(connecting, reason));
      }
    } finally {
      clearTimeout(timer);
    }
  }

  private register(
    entry: ServerEntry,
    connecting: ConnectingServer,
    connection: ServerConnection,
    remoteTools: RemoteTool[],
    toolset: KimiToolset,
  ): void {
    const host = this.hostFor(entry);
    const registered: string[] = [];
    const skipped: SkippedTool[] = [];
    for (const remote of remoteTools) {
      const reason = remote.taskOnly
        ? 'it can only run as an MCP task (call now, fetch the result later), which kimi-ts does not support'
        : this.collision(remote.name, toolset);
      if (reason) {
        skipped.push({ name: remote.name, reason });
        continue;
      }
      toolset.add(
        createMcpTool({
          host,
          remote,
          timeoutMs: this.options.toolCallTimeoutMs ?? DEFAULT_TOOL_CALL_TIMEOUT_MS,
          outputDir: this.options.outputDir,
        }),
      );
      this.toolOwners.set(remote.name, entry.name);
      registered.push(remote.name);
    }
    const connected = markConnected(connecting, connection, registered, skipped);
    connection.onLost = (reason) => this.lost(entry, connected, reason);
    this.transition(entry, connected);
  }

  private collision(name: string, toolset: KimiToolset): string | null {
    if (!USABLE_TOOL_NAME.test(name)) {
      return 'its name is not accepted by model APIs (letters, digits, "_" and "-" only, at most 64 characters)';
    }
    const owner = this.toolOwners.get(name);
    if (owner !== undefined) return `MCP server "${owner}" already provides a tool with this name`;
    if (toolset.find(name)) return 'a built-in tool already has this name';
    return null;
  }

  private lost(entry: ServerEntry, connected: ConnectedServer, reason: string): void {
    if (this.closeController.signal.aborted || entry.state !== connected) return;
    this.track(connected.connection.close());
    this.transition(entry, markFailed(connected, redactSecrets(reason, entry.secrets)));
  }

  private hostFor(entry: ServerEntry): McpToolHost {
    return {
      serverName: entry.name,
      client: (): { client: Client } | { unavailable: string } => {
        const state = entry.state;
        if (state.status === 'connected') return { client: state.connection.client };
        if (state.status === 'failed') return { unavailable: state.reason };
        return { unavailable: `the server is ${state.status}` };
      },
      redact: (text) => redactSecrets(text, entry.secrets),
    };
  }

  private authorizationHint(entry: ServerEntry, reason: string): string {
    const command = (this.options.authCommand ?? ((name: string) => `kimi-ts mcp auth ${name}`))(entry.name);
    const oauth = entry.config.kind === 'remote' && entry.config.auth?.type === 'oauth';
    return oauth ? `${reason}; run \`${command}\` to authorize` : reason;
  }

  private transition(entry: ServerEntry, next: ServerState): void {
    entry.state = next;
    const snapshot = this.statusSnapshot();
    for (const listener of this.listeners) {
      try {
        listener(snapshot);
      } catch {
        // A front end's listener must not break loading.
      }
    }
  }

  private track(closing: Promise<void>): void {
    const settled = closing.catch(() => undefined);
    this.closing.add(settled);
    void settled.then(() => this.closing.delete(settled));
  }
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
