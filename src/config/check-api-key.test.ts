import { describe, expect, it } from 'vitest';
import { checkApiKey } from './check-api-key.js';
import { resolveModel, unknownModelAlias } from './resolve-model.js';
import { configSchema } from './schema.js';

const config = configSchema.parse({
  default_model: 'm',
  providers: { moon: { type: 'kimi', base_url: 'https://api.moonshot.ai/v1' } },
  models: { m: { provider: 'moon', model: 'k2', max_context_size: 1000 } },
});

describe('start-up checks of the model', () => {
  it('names an unknown -m alias and the configured ones', () => {
    expect(unknownModelAlias(config, 'nosuch')).toBe("unknown model alias 'nosuch'; configured: m");
    expect(unknownModelAlias(config, 'm')).toBeNull();
    expect(unknownModelAlias(config, undefined)).toBeNull();
  });

  it('names the file, table and key of a missing api_key; KIMI_API_KEY or a login fills it', () => {
    const resolved = resolveModel(config, { env: {} });
    if (resolved.status !== 'ready') throw new Error(resolved.message);
    expect(() => checkApiKey(resolved, { kind: 'file', path: '/c.toml' })).toThrow(
      'Invalid config in /c.toml: providers.moon.api_key: is empty',
    );
    const fromEnv = resolveModel(config, { env: { KIMI_API_KEY: 'sk-x' } });
    if (fromEnv.status !== 'ready') throw new Error(fromEnv.message);
    expect(() => checkApiKey(fromEnv, { kind: 'inline' })).not.toThrow();
    expect(() =>
      checkApiKey({ ...resolved, oauth: { storage: 'file', key: 'oauth/kimi-code' } }, { kind: 'inline' }),
    ).not.toThrow();
  });

  it('refuses an environment base URL that is not a URL', () => {
    expect(() => resolveModel(config, { env: { KIMI_BASE_URL: 'nope' } })).toThrow(
      'KIMI_BASE_URL: must be an http:// or https:// URL',
    );
  });
});
