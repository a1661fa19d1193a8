import { formatKeyPath } from './config-error.js';
import { INLINE_SOURCE, type LoadedConfig } from './load-config.js';
import type { ResolvedModel } from './resolve-model.js';

/** Where the API key of a resolved model came from, so a person knows which one to fix. Never the key. */
export type ApiKeySource =
  | { kind: 'environment'; variable: string }
  | { kind: 'config'; where: string; keyPath: string }
  | { kind: 'login' }
  | { kind: 'none' };

const KEY_VARIABLES = ['KIMI_API_KEY', 'OPENAI_API_KEY'] as const;

export function apiKeySource(model: ResolvedModel, source: LoadedConfig['source']): ApiKeySource {
  const variable = [...KEY_VARIABLES].reverse().find((name) => model.envOverrides.includes(name));
  if (variable !== undefined && model.apiKey !== '') return { kind: 'environment', variable };
  if (model.apiKey !== '' && model.providerName !== null) {
    return {
      kind: 'config',
      where: source.kind === 'inline' ? INLINE_SOURCE : source.path,
      keyPath: formatKeyPath(['providers', model.providerName, 'api_key']),
    };
  }
  if (model.oauth !== null) return { kind: 'login' };
  return { kind: 'none' };
}

/** "the environment variable KIMI_API_KEY", "providers.x.api_key in /path/config.toml", … */
export function describeApiKeySource(source: ApiKeySource): string {
  switch (source.kind) {
    case 'environment':
      return `the environment variable ${source.variable}`;
    case 'config':
      return `${source.keyPath} in ${source.where}`;
    case 'login':
      return 'the Kimi Code login (kimi-ts login)';
    case 'none':
      return 'nowhere: no API key is set';
  }
}
