import { describe, expect, it } from 'vitest';
import { ConfigError } from './config-error.js';
import type { LLMNotSet } from './llm-not-set.js';
import { parseInlineConfig } from './load-config.js';
import {
  describeResolvedModel,
  inferCapabilities,
  type ResolvedModel,
  resolveModel,
} from './resolve-model.js';
import { defaultConfig } from './schema.js';

const config = parseInlineConfig(`
default_model = "kimi"
[providers.moonshot]
type = "kimi"
base_url = "https://api.moonshot.example/v1"
api_key = "sk-config-key"
custom_headers = { "X-Team" = "tools" }
[providers.oa]
type = "openai_legacy"
base_url = "https://openai.example/v1"
api_key = "sk-openai-key"
[providers.script]
type = "_scripted_echo"
base_url = ""
api_key = ""
env = { KIMI_SCRIPTED_ECHO_SCRIPTS = "/tmp/scripts.json" }
[models.kimi]
provider = "moonshot"
model = "kimi-k2"
max_context_size = 262144
capabilities = ["thinking", "image_in"]
display_name = "Kimi K2"
[models.gpt]
provider = "oa"
model = "gpt-x"
max_context_size = 128000
[models.scripted]
provider = "script"
model = "scripted_echo"
max_context_size = 10000
`);

const home = '/home/u/.kimi-ts';

function ready(result: ResolvedModel | LLMNotSet): ResolvedModel {
  if (result.status !== 'ready') throw new Error(`expected a model, got: ${result.message}`);
  return result;
}

function notSet(result: ResolvedModel | LLMNotSet): LLMNotSet {
  if (result.status !== 'not_set') throw new Error('expected LLM not set');
  return result;
}

describe('resolveModel', () => {
  it('uses default_model and its provider', () => {
    const model = ready(resolveModel(config, { env: {}, home }));
    expect(model).toEqual({
      status: 'ready',
      providerName: 'moonshot',
      modelAlias: 'kimi',
      providerType: 'kimi',
      baseUrl: 'https://api.moonshot.example/v1',
      apiKey: 'sk-config-key',
      model: 'kimi-k2',
      displayName: 'Kimi K2',
      maxContextSize: 262144,
      capabilities: ['thinking', 'image_in'],
      customHeaders: { 'X-Team': 'tools' },
      reasoningKey: null,
      providerEnv: {},
      oauth: null,
      clampCompletion: true,
      envOverrides: [],
    });
  });

  it('lets --model pick another alias', () => {
    const model = ready(resolveModel(config, { modelAlias: 'gpt', env: {} }));
    expect(model).toMatchObject({ providerType: 'openai_legacy', model: 'gpt-x', maxContextSize: 128000 });
  });

  it('does not fall back to default_model for an unknown --model alias', () => {
    const result = notSet(resolveModel(config, { modelAlias: 'nope', env: {}, home }));
    expect(result.reason).toBe('--model "nope" is not a model defined under [models]');
    expect(result.message).toContain('Configure a model');
  });

  it('applies the KIMI_* overrides to a kimi provider', () => {
    const model = ready(
      resolveModel(config, {
        env: {
          KIMI_BASE_URL: 'http://127.0.0.1:9/v1',
          KIMI_API_KEY: 'sk-env',
          KIMI_MODEL_NAME: 'kimi-other',
          KIMI_MODEL_MAX_CONTEXT_SIZE: '4096',
          KIMI_MODEL_CAPABILITIES: ' Video_In, nonsense ,thinking',
          KIMI_MODEL_TEMPERATURE: '0.3',
          KIMI_MODEL_TOP_P: '0.95',
          KIMI_MODEL_THINKING_KEEP: 'all',
          KIMI_MODEL_MAX_TOKENS: '2048',
        },
      }),
    );
    expect(model).toMatchObject({
      providerName: 'moonshot',
      baseUrl: 'http://127.0.0.1:9/v1',
      apiKey: 'sk-env',
      model: 'kimi-other',
      maxContextSize: 4096,
      capabilities: ['thinking', 'video_in'],
      temperature: 0.3,
      topP: 0.95,
      thinkingKeep: 'all',
      maxTokens: 2048,
      clampCompletion: true,
    });
    expect(model.envOverrides).toEqual([
      'KIMI_BASE_URL',
      'KIMI_API_KEY',
      'KIMI_MODEL_NAME',
      'KIMI_MODEL_MAX_CONTEXT_SIZE',
      'KIMI_MODEL_CAPABILITIES',
      'KIMI_MODEL_TEMPERATURE',
      'KIMI_MODEL_TOP_P',
      'KIMI_MODEL_THINKING_KEEP',
      'KIMI_MODEL_MAX_TOKENS',
    ]);
  });

  it('prefers KIMI_MODEL_MAX_COMPLETION_TOKENS, and <= 0 turns clamping off', () => {
    const both = ready(
      resolveModel(config, { env: { KIMI_MODEL_MAX_COMPLETION_TOKENS: '100', KIMI_MODEL_MAX_TOKENS: '5' } }),
    );
    expect(both.maxTokens).toBe(100);
    const off = ready(resolveModel(config, { env: { KIMI_MODEL_MAX_COMPLETION_TOKENS: '0' } }));
    expect(off.maxTokens).toBeUndefined();
    expect(off.clampCompletion).toBe(false);
  });

  it('leaves other provider types alone, except OPENAI_* for the OpenAI types', () => {
    const model = ready(
      resolveModel(config, {
        modelAlias: 'gpt',
        env: {
          KIMI_BASE_URL: 'http://kimi',
          KIMI_MODEL_NAME: 'x',
          OPENAI_BASE_URL: 'http://oa',
          OPENAI_API_KEY: 'sk-o',
        },
      }),
    );
    expect(model).toMatchObject({ baseUrl: 'http://oa', apiKey: 'sk-o', model: 'gpt-x' });
  });

  it('builds a kimi provider from environment variables alone', () => {
    const model = ready(
      resolveModel(defaultConfig(), {
        env: { KIMI_BASE_URL: 'http://127.0.0.1:1/v1', KIMI_API_KEY: 'sk-e', KIMI_MODEL_NAME: 'kimi-k2' },
      }),
    );
    expect(model).toMatchObject({
      providerName: null,
      modelAlias: null,
      providerType: 'kimi',
      baseUrl: 'http://127.0.0.1:1/v1',
      apiKey: 'sk-e',
      model: 'kimi-k2',
      maxContextSize: 100_000,
    });
  });

  it('lets KIMI_TS_PROVIDER_TYPE choose the API of an environment-only provider', () => {
    const model = ready(
      resolveModel(defaultConfig(), {
        env: { KIMI_TS_PROVIDER_TYPE: 'anthropic', KIMI_BASE_URL: 'http://a', KIMI_MODEL_NAME: 'claude' },
      }),
    );
    expect(model).toMatchObject({ providerType: 'anthropic', baseUrl: 'http://a', model: 'claude' });
    expect(() => resolveModel(defaultConfig(), { env: { KIMI_TS_PROVIDER_TYPE: 'bogus' } })).toThrow(
      'Invalid config in environment variable KIMI_TS_PROVIDER_TYPE: KIMI_TS_PROVIDER_TYPE: must be one of kimi,',
    );
  });

  it('says which variable is missing when the environment is half set', () => {
    const result = notSet(resolveModel(defaultConfig(), { env: { KIMI_BASE_URL: 'http://x' }, home }));
    expect(result.reason).toBe('KIMI_MODEL_NAME must be set to configure a model from environment variables');
  });

  it('accepts test providers without an endpoint and passes their env table', () => {
    const model = ready(resolveModel(config, { modelAlias: 'scripted', env: {} }));
    expect(model.providerType).toBe('_scripted_echo');
    expect(model.providerEnv).toEqual({ KIMI_SCRIPTED_ECHO_SCRIPTS: '/tmp/scripts.json' });
  });

  it('rejects malformed numeric variables by name, without echoing values', () => {
    const bad = (env: Record<string, string>) => {
      try {
        resolveModel(config, { env });
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as ConfigError).message;
      }
      throw new Error('expected a ConfigError');
    };
    expect(bad({ KIMI_MODEL_MAX_CONTEXT_SIZE: '12k' })).toBe(
      'Invalid config in environment variable KIMI_MODEL_MAX_CONTEXT_SIZE: KIMI_MODEL_MAX_CONTEXT_SIZE: must be a whole number',
    );
    expect(bad({ KIMI_MODEL_MAX_CONTEXT_SIZE: '0' })).toContain('must be at least 1');
    expect(bad({ KIMI_MODEL_TEMPERATURE: 'warm' })).toContain('KIMI_MODEL_TEMPERATURE: must be a number');
  });

  it('describes a model for logs without its API key', () => {
    const model = ready(resolveModel(config, { env: {} }));
    const text = describeResolvedModel(model);
    expect(text).toContain('kimi-k2');
    expect(text).not.toContain('sk-config-key');
  });
});

describe('LLM not set', () => {
  it('tells exactly how to configure a model when nothing is configured', () => {
    const result = notSet(resolveModel(defaultConfig(), { env: {}, home }));
    expect(result.reason).toBe('no model is configured');
    expect(result.message).toMatch(/^LLM not set: no model is configured\.\n\n/);
    for (const line of [
      'export KIMI_BASE_URL="https://api.moonshot.ai/v1"',
      'export KIMI_API_KEY="<your API key>"',
      'export KIMI_MODEL_NAME="<model name>"',
      `2. A config file: ${home}/config.toml (or pass --config-file PATH):`,
      'default_model = "my-model"',
      '[providers.my-provider]',
      '[models.my-model]',
      'max_context_size = 262144',
      'KIMI_TS_PROVIDER_TYPE',
    ]) {
      expect(result.howToConfigure).toContain(line);
    }
  });

  it('reports a configured provider with an empty base_url', () => {
    const empty = parseInlineConfig(
      '{"default_model":"m","providers":{"p":{"type":"kimi","base_url":"","api_key":""}},"models":{"m":{"provider":"p","model":"k","max_context_size":10}}}',
    );
    const result = notSet(resolveModel(empty, { env: {}, home }));
    expect(result.reason).toBe('provider "p" (model "m") has an empty base_url');
  });
});

describe('inferCapabilities: what Kimi CLI infers from a model name', () => {
  it.each([
    ['kimi-for-coding', [], ['thinking', 'image_in', 'video_in']],
    ['kimi-code', ['thinking'], ['thinking', 'image_in', 'video_in']],
    ['kimi-k2-thinking', [], ['thinking', 'always_thinking']],
    ['deep-reasoner', ['image_in'], ['image_in', 'thinking', 'always_thinking']],
    ['kimi-k2.6', [], []],
  ] as const)('%s', (model, configured, expected) => {
    expect(inferCapabilities(model, configured).sort()).toEqual([...expected].sort());
  });
});
