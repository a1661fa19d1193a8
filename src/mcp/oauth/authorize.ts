import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { OAuthStore } from './oauth-store.js';
import { openInBrowser } from './open-browser.js';
import { startRedirectReceiver } from './redirect-receiver.js';
import { StoredOAuthProvider } from './stored-oauth-provider.js';

export interface AuthorizeServerOptions {
  serverUrl: string;
  store: OAuthStore;
  /** Progress for the user (the URL to open, what is being waited for). */
  log: (line: string) => void;
  /** Opens the authorization page; false when it could not. Default: the desktop's browser. */
  openUrl?: ((url: string) => Promise<boolean>) | undefined;
  signal?: AbortSignal | undefined;
  /** How long to wait for the browser to come back. Default 5 minutes. */
  timeoutMs?: number | undefined;
  fetch?: FetchLike | undefined;
}

const DEFAULT_TIMEOUT_MS = 5 * 60_000;

/**
 * The browser flow of `kimi-ts mcp auth`: discovery and dynamic client registration through the
 * SDK, the user's consent in a browser, the code back on a loopback redirect, then the token
 * exchange. Tokens and the registered client end up in `store`, where background connections find
 * them (and refresh with them).
 */
export async function authorizeServer(options: AuthorizeServerOptions): Promise<void> {
  const { serverUrl, store, log, signal } = options;
  const openUrl = options.openUrl ?? openInBrowser;
  const stored = await store.read(serverUrl);
  const receiver = await startRedirectReceiver(portOf(stored.redirect_url));
  const fetchFn = withSignal(options.fetch ?? fetch, signal);
  try {
    const provider = await StoredOAuthProvider.open(store, serverUrl, {
      redirectUrl: receiver.url,
      onAuthorizationUrl: async (url) => {
        log(`Opening the authorization page in your browser:\n  ${url.href}`);
        if (!(await openUrl(url.href))) log('Could not open a browser: open the address above yourself.');
        log('Waiting for the authorization to complete...');
      },
    });
    // Asked explicitly to authorize: run the browser flow rather than silently refreshing old tokens.
    await provider.invalidateCredentials('tokens');
    const started = await auth(provider, { serverUrl, fetchFn });
    if (started === 'AUTHORIZED') return;
    const code = await receiver.waitForCode({
      expectedState: () => provider.pendingState,
      signal,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    });
    const finished = await auth(provider, { serverUrl, authorizationCode: code, fetchFn });
    if (finished !== 'AUTHORIZED') throw new Error('the server did not accept the authorization code');
  } finally {
    await receiver.close();
  }
}

function portOf(url: string | undefined): number | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.hostname === '127.0.0.1' && parsed.port ? Number(parsed.port) : undefined;
  } catch {
    return undefined;
  }
}

function withSignal(base: FetchLike, signal: AbortSignal | undefined): FetchLike {
  if (!signal) return base;
  return (url, init) =>
    base(url, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal });
}
