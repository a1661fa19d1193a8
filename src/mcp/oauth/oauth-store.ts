import { createHash } from 'node:crypto';
import { chmod, mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { z } from 'zod';
import { writeFileAtomic } from '../../util/atomic-file.js';

/** What is kept for one MCP server (fields as the SDK hands them over, unchanged). */
export interface OAuthRecord {
  server_url: string;
  tokens?: OAuthTokens | undefined;
  client_information?: OAuthClientInformationMixed | undefined;
  /** The redirect URL the client was registered with. */
  redirect_url?: string | undefined;
  code_verifier?: string | undefined;
  discovery_state?: OAuthDiscoveryState | undefined;
}

const recordSchema = z.looseObject({
  server_url: z.string(),
  tokens: z.looseObject({ access_token: z.string(), token_type: z.string() }).optional(),
  client_information: z.looseObject({ client_id: z.string() }).optional(),
  redirect_url: z.string().optional(),
  code_verifier: z.string().optional(),
  discovery_state: z.looseObject({ authorizationServerUrl: z.string() }).optional(),
});

/** The key a server's credentials are stored under: its URL without a trailing slash. */
export function oauthServerKey(url: string): string {
  return url.trim().replace(/\/+$/, '');
}

/**
 * OAuth credentials of MCP servers, one JSON file per server URL under `<home>/mcp-oauth/`. The
 * folder is private (0700) and every file 0600; a write replaces the file atomically, so a crash
 * never leaves half a token behind. Writes to one server are serialised within the process.
 */
export class OAuthStore {
  private readonly queues = new Map<string, Promise<unknown>>();

  /**
   * `onSecret` hears every token the store reads or writes (the session's secret registry), before
   * a connection can use it, so a token never shows up in what the session writes.
   */
  constructor(
    readonly dir: string,
    private readonly onSecret: (value: string, source: string) => void = () => {},
  ) {}

  static forHome(home: string, onSecret?: (value: string, source: string) => void): OAuthStore {
    return new OAuthStore(join(home, 'mcp-oauth'), onSecret);
  }

  fileFor(serverUrl: string): string {
    const key = oauthServerKey(serverUrl);
    let host = 'server';
    try {
      host = new URL(key).host.replace(/[^A-Za-z0-9.-]/g, '_');
    } catch {
      // Not a URL: the hash alone names it.
    }
    return join(this.dir, `${host}-${createHash('sha256').update(key).digest('hex').slice(0, 16)}.json`);
  }

  /** The stored record (an empty one when there is none or the file is unreadable). */
  async read(serverUrl: string): Promise<OAuthRecord> {
    const key = oauthServerKey(serverUrl);
    try {
      const parsed = recordSchema.safeParse(JSON.parse(await readFile(this.fileFor(key), 'utf8')));
      if (parsed.success && parsed.data.server_url === key) return this.told(parsed.data as OAuthRecord);
    } catch {
      // Missing or corrupt: start over.
    }
    return { server_url: key };
  }

  async hasTokens(serverUrl: string): Promise<boolean> {
    return (await this.read(serverUrl)).tokens !== undefined;
  }

  /** Changes the record with `change` and writes it back. */
  update(serverUrl: string, change: (record: OAuthRecord) => OAuthRecord): Promise<OAuthRecord> {
    const key = oauthServerKey(serverUrl);
    return this.serialise(key, async () => {
      const next = this.told({ ...change(await this.read(key)), server_url: key });
      await this.write(this.fileFor(key), `${JSON.stringify(next, null, 2)}\n`);
      return next;
    });
  }

  /** Forgets everything stored for the server. Returns false when nothing was stored. */
  clear(serverUrl: string): Promise<boolean> {
    const key = oauthServerKey(serverUrl);
    return this.serialise(key, async () => {
      const file = this.fileFor(key);
      try {
        await rm(file);
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
        throw error;
      }
    });
  }

  private told(record: OAuthRecord): OAuthRecord {
    const source = `mcp ${record.server_url} oauth`;
    if (record.tokens?.access_token) this.onSecret(record.tokens.access_token, `${source} access_token`);
    if (record.tokens?.refresh_token) this.onSecret(record.tokens.refresh_token, `${source} refresh_token`);
    return record;
  }

  private serialise<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(key) ?? Promise.resolve();
    const next = previous.then(task, task);
    const settled = next.catch(() => undefined);
    this.queues.set(key, settled);
    void settled.then(() => {
      if (this.queues.get(key) === settled) this.queues.delete(key);
    });
    return next;
  }

  private async write(path: string, data: string): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await chmod(this.dir, 0o700);
    await writeFileAtomic(path, data, { mode: 0o600 });
  }
}
