import { createProviderWithLogin } from '../auth/provider-with-login.js';
import type { ResolvedModel } from '../config/resolve-model.js';
import type { Config } from '../config/schema.js';
import type { ChatProvider } from '../kosong/provider.js';
import type { ProviderSpec } from '../kosong/providers/index.js';
import type { SecretRegistry } from '../policy/secrets.js';

export interface ProviderSettings {
  config: Config;
  /** kimi-ts's data folder: OAuth logins (`kimi-ts login`) are kept there. */
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  sessionId: string;
  /** `--thinking` / `--no-thinking`; absent: the config's `default_thinking`. */
  thinking?: boolean | undefined;
  /** The session's secrets: OAuth tokens join them the moment they are loaded or refreshed. */
  secrets?: SecretRegistry | undefined;
}

/** The chat provider of a resolved model, with thinking switched as the model and the flags say. */
export async function buildProvider(
  resolved: ResolvedModel,
  settings: ProviderSettings,
): Promise<ChatProvider> {
  const { env } = settings;
  const scripted = ['_scripted_echo', 'scripted'].includes(resolved.providerType);
  const spec: ProviderSpec = {
    type: resolved.providerType,
    model: resolved.model,
    baseUrl: resolved.baseUrl || undefined,
    apiKey: resolved.apiKey || undefined,
    customHeaders: resolved.customHeaders,
    reasoningKey: resolved.reasoningKey ?? undefined,
    maxTokens: resolved.maxTokens,
    temperature: resolved.temperature,
    topP: resolved.topP,
    thinkingKeep: resolved.thinkingKeep,
    sessionId: settings.sessionId,
    // Vertex AI without an API key: Google's usual variables, from the provider's env table or ours.
    vertex: {
      project: resolved.providerEnv.GOOGLE_CLOUD_PROJECT ?? env.GOOGLE_CLOUD_PROJECT,
      location: resolved.providerEnv.GOOGLE_CLOUD_LOCATION ?? env.GOOGLE_CLOUD_LOCATION,
    },
    // Imported only for the scripted provider: its script parser's schemas cost every other start ~10 ms.
    scripts: scripted
      ? await (await import('./scripted-scripts.js')).loadScriptedScripts(resolved.providerEnv, env)
      : undefined,
  };
  const { secrets } = settings;
  const provider = await createProviderWithLogin(
    spec,
    resolved.oauth,
    settings.home,
    env,
    secrets && ((value, source) => secrets.add(value, source)),
  );
  const thinking = settings.thinking ?? settings.config.default_thinking;
  if (
    resolved.capabilities.includes('always_thinking') ||
    (thinking && resolved.capabilities.includes('thinking'))
  ) {
    return provider.withThinking('high');
  }
  // Off unless asked for, and said so on every request (Kimi CLI sends `thinking: {type: disabled}`
  // on the Kimi API by default: a model that thinks by default would otherwise think unasked).
  if (!thinking) return provider.withThinking('off');
  return provider;
}
