import { ChatProviderError } from '../errors.js';
import type { ChatProvider } from '../provider.js';
import type { ProviderOptions } from './options.js';

export type { ProviderOptions } from './options.js';

import { PROVIDER_TYPES, type ProviderType } from './provider-types.js';

export { PROVIDER_TYPES, type ProviderType };

export interface ProviderSpec extends ProviderOptions {
  type: string;
  /** `openai_legacy`: the field carrying reasoning (default `reasoning_content`, `''` disables). */
  reasoningKey?: string | undefined;
  /** `scripted`: the scripts, one per model call (see the script DSL). */
  scripts?: readonly string[] | undefined;
  /**
   * `chaos`: fault options (default: the `CHAOS_*` environment variables); the wrapped provider is a
   * `kimi` provider built from the same spec.
   */
  chaos?: import('./chaos/index.js').ChaosOptions | undefined;
  /** `vertexai` without an API key: the Google Cloud project and location (credentials from ADC). */
  vertex?: { project?: string | undefined; location?: string | undefined } | undefined;
}

export function isProviderType(type: string): type is ProviderType {
  return (PROVIDER_TYPES as readonly string[]).includes(type);
}

/**
 * Builds a provider from its spec. Each SDK is imported only when its provider is used, so starting
 * the CLI does not pay for SDKs it does not need.
 */
export async function createChatProvider(spec: ProviderSpec): Promise<ChatProvider> {
  switch (spec.type) {
    case 'kimi': {
      const { KimiProvider } = await import('./openai-chat/index.js');
      return new KimiProvider(spec);
    }
    case 'openai_legacy': {
      const { OpenAIChatProvider } = await import('./openai-chat/index.js');
      return new OpenAIChatProvider(spec);
    }
    case 'openai_responses': {
      const { OpenAIResponsesProvider } = await import('./openai-responses/index.js');
      return new OpenAIResponsesProvider(spec);
    }
    case 'anthropic': {
      const { AnthropicProvider } = await import('./anthropic/index.js');
      return new AnthropicProvider(spec);
    }
    case 'gemini':
    case 'google_genai': {
      const { GeminiProvider } = await import('./gemini/index.js');
      return new GeminiProvider(spec);
    }
    case 'vertexai': {
      const { GeminiProvider } = await import('./gemini/index.js');
      return new GeminiProvider(spec, spec.vertex ?? {});
    }
    case 'scripted':
    case '_scripted_echo': {
      const { ScriptedProvider } = await import('./scripted/index.js');
      return new ScriptedProvider(spec.scripts ?? [], { modelName: spec.model || 'scripted' });
    }
    case 'echo':
    case '_echo': {
      const { EchoProvider } = await import('./scripted/index.js');
      return new EchoProvider(spec.thinkingEffort ?? null);
    }
    case 'chaos':
    case '_chaos': {
      const { ChaosProvider, chaosOptionsFromEnv } = await import('./chaos/index.js');
      const inner = await createChatProvider({ ...spec, type: 'kimi' });
      return new ChaosProvider(inner, spec.chaos ?? chaosOptionsFromEnv(process.env));
    }
    default:
      throw new ChatProviderError(
        `Unknown provider type \`${spec.type}\`. Known types: ${PROVIDER_TYPES.filter((t) => !t.startsWith('_')).join(', ')}.`,
      );
  }
}
