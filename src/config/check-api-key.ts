import { ConfigError, formatKeyPath } from './config-error.js';
import { INLINE_SOURCE, type LoadedConfig } from './load-config.js';
import type { ResolvedModel } from './resolve-model.js';

/** Provider types whose API refuses every request without a key (OpenAI-compatible local servers need none). */
const NEEDS_API_KEY: ReadonlySet<string> = new Set(['kimi', '_chaos', 'chaos']);

/**
 * A model whose provider has no `api_key` (and no OAuth login, and no `KIMI_API_KEY`) would fail at
 * its first request: stop at start instead, naming the config source, the provider's table and the
 * key. Never includes a configured value.
 */
export function checkApiKey(model: ResolvedModel, source: LoadedConfig['source']): void {
  if (model.apiKey !== '' || model.oauth !== null || !NEEDS_API_KEY.has(model.providerType)) return;
  const where = source.kind === 'inline' ? INLINE_SOURCE : source.path;
  if (model.providerName === null) {
    throw new ConfigError('environment variables', {
      keyPath: 'KIMI_API_KEY',
      problem: 'is not set: the model configured by KIMI_BASE_URL and KIMI_MODEL_NAME needs an API key',
    });
  }
  throw new ConfigError(where, {
    keyPath: formatKeyPath(['providers', model.providerName, 'api_key']),
    problem: `is empty: the ${model.providerType} provider needs an API key (set it there, or export KIMI_API_KEY)`,
  });
}
