import type { Env } from '../config/home.js';
import type { ChatProvider } from '../kosong/provider.js';
import { createChatProvider, type ProviderSpec } from '../kosong/providers/index.js';
import { OAuthChatProvider } from './oauth-chat-provider.js';
import { OAuthTokenSource, type SecretListener } from './oauth-token-source.js';

/**
 * The provider of a model: as configured, or, for a provider `kimi-ts login` wrote (an `oauth`
 * reference and no `api_key`), one whose key is the stored login's access token, kept fresh.
 */
export function createProviderWithLogin(
  spec: ProviderSpec,
  oauth: { key: string } | null,
  home: string,
  env: Env,
  onSecret?: SecretListener,
): Promise<ChatProvider> {
  if (!oauth || spec.apiKey) return createChatProvider(spec);
  return OAuthChatProvider.create(new OAuthTokenSource(home, oauth.key, env, onSecret), (accessToken) =>
    createChatProvider({ ...spec, apiKey: accessToken }),
  );
}
