import type { Env } from '../config/home.js';
import { OAuthError, refreshTokens } from './device-flow.js';
import { kimiCodeEndpoints } from './kimi-code-endpoints.js';
import { credentialsFile, readTokens, type StoredTokens, writeTokens } from './token-store.js';

/** Kimi CLI's threshold: refresh once less than max(300 s, half the token's lifetime) is left. */
const MIN_REFRESH_MARGIN_S = 300;

/** Hears every token the source holds (read or refreshed), under where it came from, before it is used. */
export type SecretListener = (value: string, source: string) => void;

export function needsRefresh(tokens: StoredTokens, nowS = Date.now() / 1000): boolean {
  if (tokens.expires_at <= 0) return false;
  const margin = Math.max(MIN_REFRESH_MARGIN_S, tokens.expires_in / 2);
  return tokens.expires_at - nowS <= margin;
}

/**
 * The access token of an OAuth-managed provider (`oauth = { storage = "file", key = … }`), read from
 * its credentials file and refreshed there: ahead of time when it is about to expire, and on demand
 * after a 401 (the soul's auth recovery). Refreshes are shared: callers that ask together wait for
 * one request. Another process may have refreshed meanwhile: the file is read again before a
 * refresh and after one that failed.
 */
export class OAuthTokenSource {
  private refreshing: Promise<string> | null = null;
  private readonly file: string;

  constructor(
    private readonly home: string,
    key: string,
    private readonly env: Env,
    private readonly onSecret: SecretListener = () => {},
  ) {
    this.file = credentialsFile(home, key);
    this.source = `login ${key}`;
  }
  private readonly source: string;

  /** A token worth sending: the stored one, refreshed first if it is about to expire. */
  async accessToken(): Promise<string> {
    const tokens = await this.read();
    if (!needsRefresh(tokens)) return tokens.access_token;
    return this.refresh(tokens.access_token);
  }

  /** After the server refused `rejected` (HTTP 401): a new token. */
  forceRefresh(rejected?: string): Promise<string> {
    return this.refresh(rejected);
  }

  private refresh(stale: string | undefined): Promise<string> {
    this.refreshing ??= (async () => {
      try {
        const current = await this.read();
        // Another process (or an earlier call) has refreshed already.
        if (stale !== undefined && current.access_token !== stale && !needsRefresh(current)) {
          return current.access_token;
        }
        let next: StoredTokens;
        try {
          next = await refreshTokens(kimiCodeEndpoints(this.env, this.home), current);
        } catch (error) {
          // Refresh tokens rotate: another process that refreshed first made ours invalid, and
          // left its new tokens in the file.
          const now = await readTokens(this.file);
          if (now && now.access_token !== current.access_token) {
            this.tell(now);
            return now.access_token;
          }
          throw error;
        }
        this.tell(next);
        await writeTokens(this.file, next);
        return next.access_token;
      } finally {
        this.refreshing = null;
      }
    })();
    return this.refreshing;
  }

  private async read(): Promise<StoredTokens> {
    const tokens = await readTokens(this.file);
    if (!tokens) throw new OAuthError('Not logged in (no stored login). Run `kimi-ts login`.');
    this.tell(tokens);
    return tokens;
  }

  /** Makes both tokens known secrets the moment they are held, so nothing shows them after. */
  private tell(tokens: StoredTokens): void {
    this.onSecret(tokens.access_token, `${this.source} access_token`);
    if (tokens.refresh_token) this.onSecret(tokens.refresh_token, `${this.source} refresh_token`);
  }
}
