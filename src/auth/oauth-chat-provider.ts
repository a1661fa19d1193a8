import type { ThinkingEffort } from '../kosong/message.js';
import type { ChatProvider, GenerateRequest, StreamedMessage } from '../kosong/provider.js';
import type { OAuthTokenSource } from './oauth-token-source.js';

/** Builds the real provider for an access token (it becomes the provider's API key). */
export type ProviderForToken = (accessToken: string) => Promise<ChatProvider>;

/**
 * A provider whose API key is an OAuth access token that changes: each call asks the token source
 * for a fresh token and rebuilds the real provider when it changed. `refreshAuth` is what the
 * soul's 401 recovery calls before its one retry.
 */
export class OAuthChatProvider implements ChatProvider {
  private inner: ChatProvider;
  private builtFor: string;

  private constructor(
    private readonly tokens: OAuthTokenSource,
    private readonly build: ProviderForToken,
    first: ChatProvider,
    token: string,
    private readonly effort: ThinkingEffort | null,
  ) {
    this.inner = first;
    this.builtFor = token;
  }

  static async create(tokens: OAuthTokenSource, build: ProviderForToken): Promise<OAuthChatProvider> {
    const token = await tokens.accessToken();
    return new OAuthChatProvider(tokens, build, await build(token), token, null);
  }

  get name(): string {
    return this.inner.name;
  }

  get modelName(): string {
    return this.inner.modelName;
  }

  get thinkingEffort(): ThinkingEffort | null {
    return this.inner.thinkingEffort;
  }

  async generate(request: GenerateRequest): Promise<StreamedMessage> {
    await this.use(await this.tokens.accessToken());
    return this.inner.generate(request);
  }

  withThinking(effort: ThinkingEffort): ChatProvider {
    return new OAuthChatProvider(
      this.tokens,
      this.build,
      this.inner.withThinking(effort),
      this.builtFor,
      effort,
    );
  }

  async onRetryableError(error: Error): Promise<boolean> {
    return (await this.inner.onRetryableError?.(error)) ?? false;
  }

  /** Forces a token refresh (after a 401) and uses the new token from the next call on. */
  async refreshAuth(): Promise<void> {
    await this.use(await this.tokens.forceRefresh(this.builtFor));
  }

  private async use(token: string): Promise<void> {
    if (token === this.builtFor) return;
    const fresh = await this.build(token);
    this.inner = this.effort === null ? fresh : fresh.withThinking(this.effort);
    this.builtFor = token;
  }
}

/** The soul's auth recovery for whatever provider is current: a refresh if it is an OAuth one. */
export async function refreshProviderAuth(provider: ChatProvider | undefined): Promise<void> {
  if (provider instanceof OAuthChatProvider) await provider.refreshAuth();
}
