import { randomBytes } from 'node:crypto';
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { OAuthRecord, OAuthStore } from './oauth-store.js';

/** The server needs the user to authorize in a browser, and this connection cannot ask. */
export class AuthorizationRequiredError extends Error {
  override name = 'AuthorizationRequiredError';
}

/** Used as the registered redirect when a stored client has none on record (never opened). */
const PLACEHOLDER_REDIRECT = 'http://127.0.0.1/callback';

export interface StoredOAuthProviderOptions {
  /** The loopback URL the browser comes back to. Set for `mcp auth`; background connections reuse the stored one. */
  redirectUrl?: string | undefined;
  /**
   * Sends the user to the authorization page (opens a browser). Without it a connection that needs
   * a new authorization fails with `AuthorizationRequiredError` instead of prompting.
   */
  onAuthorizationUrl?: ((url: URL) => void | Promise<void>) | undefined;
  clientName?: string | undefined;
}

/**
 * The SDK's `OAuthClientProvider` backed by `OAuthStore`: tokens, the dynamically registered
 * client, the PKCE verifier and discovery results survive between runs, so a background connection
 * can refresh an expired token with the client registered during `kimi-ts mcp auth`.
 */
export class StoredOAuthProvider implements OAuthClientProvider {
  private expectedState: string | undefined;

  private constructor(
    private readonly store: OAuthStore,
    private readonly serverUrl: string,
    private record: OAuthRecord,
    private readonly options: StoredOAuthProviderOptions,
  ) {}

  static async open(
    store: OAuthStore,
    serverUrl: string,
    options: StoredOAuthProviderOptions = {},
  ): Promise<StoredOAuthProvider> {
    return new StoredOAuthProvider(store, serverUrl, await store.read(serverUrl), options);
  }

  get redirectUrl(): string {
    return this.options.redirectUrl ?? this.record.redirect_url ?? PLACEHOLDER_REDIRECT;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.options.clientName ?? 'kimi-ts',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  /** The `state` sent with the last authorization request (the redirect must bring it back). */
  get pendingState(): string | undefined {
    return this.expectedState;
  }

  state(): string {
    this.expectedState = randomBytes(16).toString('hex');
    return this.expectedState;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const info = this.record.client_information;
    if (!info) return undefined;
    // A client registered for another loopback port cannot receive this redirect: register anew.
    const registered = this.record.redirect_url;
    if (this.options.redirectUrl && registered && registered !== this.options.redirectUrl) return undefined;
    return info;
  }

  async saveClientInformation(info: OAuthClientInformationMixed): Promise<void> {
    await this.change((record) => ({ ...record, client_information: info, redirect_url: this.redirectUrl }));
  }

  tokens(): OAuthTokens | undefined {
    return this.record.tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    await this.change((record) => ({ ...record, tokens }));
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    if (!this.options.onAuthorizationUrl) {
      throw new AuthorizationRequiredError('the server asks for a new authorization in the browser');
    }
    await this.options.onAuthorizationUrl(url);
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    await this.change((record) => ({ ...record, code_verifier: codeVerifier }));
  }

  codeVerifier(): string {
    const verifier = this.record.code_verifier;
    if (!verifier) throw new Error('no PKCE code verifier was saved for this authorization');
    return verifier;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    await this.change((record) => {
      const next = { ...record };
      if (scope === 'all' || scope === 'client') {
        next.client_information = undefined;
        next.redirect_url = undefined;
      }
      if (scope === 'all' || scope === 'tokens') next.tokens = undefined;
      if (scope === 'all' || scope === 'verifier') next.code_verifier = undefined;
      if (scope === 'all' || scope === 'discovery') next.discovery_state = undefined;
      return next;
    });
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await this.change((record) => ({ ...record, discovery_state: state }));
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.record.discovery_state;
  }

  private async change(update: (record: OAuthRecord) => OAuthRecord): Promise<void> {
    this.record = await this.store.update(this.serverUrl, update);
  }
}
