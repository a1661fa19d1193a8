import { PROVIDER_TYPES, type ProviderType } from '../kosong/providers/provider-types.js';
import { ConfigError } from './config-error.js';
import { type Env, kimiTsHome } from './home.js';
import { isHttpUrl } from './http-url.js';
import { type LLMNotSet, llmNotSet } from './llm-not-set.js';
import { MODEL_CAPABILITIES, type ModelCapability } from './model-capabilities.js';
import type { Config, ModelConfig, ProviderConfig } from './schema.js';

/** The model a session talks to, after `--model`, `default_model` and the environment were applied. */
export interface ResolvedModel {
  status: 'ready';
  /** The `[providers.NAME]` table used; null when the environment alone defined the provider. */
  providerName: string | null;
  /** The `[models.ALIAS]` table used; null when the environment alone defined the model. */
  modelAlias: string | null;
  providerType: ProviderType;
  baseUrl: string;
  /** Secret: never log or print it (see `describeResolvedModel`). May be empty (OAuth, local servers). */
  apiKey: string;
  /** The model name sent to the API. */
  model: string;
  displayName: string | null;
  maxContextSize: number;
  capabilities: ModelCapability[];
  customHeaders: Record<string, string>;
  reasoningKey: string | null;
  /** The provider's `env` table (test providers read their scripts from it). */
  providerEnv: Record<string, string>;
  oauth: { storage: 'file' | 'keyring'; key: string } | null;
  temperature?: number;
  topP?: number;
  /** `KIMI_MODEL_THINKING_KEEP`: the Kimi API's `thinking.keep`, sent only while thinking is on. */
  thinkingKeep?: string | number | boolean;
  /** A hard cap on completion tokens per request. */
  maxTokens?: number;
  /** False when `KIMI_MODEL_MAX_COMPLETION_TOKENS` <= 0 turned the completion budget off. */
  clampCompletion: boolean;
  /** Names (never values) of the environment variables that changed something. */
  envOverrides: string[];
}

export interface ResolveModelOptions {
  /** `--model ALIAS`: must name a `[models.*]` table; an unknown alias does not fall back. */
  modelAlias?: string | undefined;
  env?: Env | undefined;
  /** Only used to name the default config file in the how-to text. */
  home?: string | undefined;
}

/**
 * `--model ALIAS` that names no `[models.*]` table: the one-line error to stop with (the setup
 * how-to would hide the typo), or null when the alias is known or none was given.
 */
export function unknownModelAlias(config: Config, alias: string | undefined): string | null {
  if (alias === undefined || Object.hasOwn(config.models, alias)) return null;
  const configured = Object.keys(config.models).join(', ') || 'none';
  return `unknown model alias '${alias}'; configured: ${configured}`;
}

/** Used when the environment defines the model but not its window (Kimi CLI's placeholder). */
export const ENV_MODEL_DEFAULT_MAX_CONTEXT_SIZE = 100_000;

/**
 * Picks the model: `--model` > `default_model` > the environment alone, then applies the
 * environment overrides. `KIMI_*` variables apply to `kimi` providers and to a provider defined by
 * the environment alone; `OPENAI_BASE_URL`/`OPENAI_API_KEY` apply to the OpenAI types;
 * `KIMI_TS_PROVIDER_TYPE` (ours) replaces the provider type. Throws `ConfigError` for a malformed
 * variable; returns `LLMNotSet` when no usable model results.
 */
export function resolveModel(config: Config, options: ResolveModelOptions = {}): ResolvedModel | LLMNotSet {
  const env = options.env ?? process.env;
  const home = options.home ?? kimiTsHome(env);
  const alias = options.modelAlias ?? (config.default_model || undefined);
  let provider: ProviderConfig | null = null;
  let model: ModelConfig | null = null;
  if (alias !== undefined) {
    if (!Object.hasOwn(config.models, alias)) {
      return llmNotSet(`--model ${JSON.stringify(alias)} is not a model defined under [models]`, home);
    }
    model = config.models[alias] ?? null;
    provider = model ? (config.providers[model.provider] ?? null) : null;
  }
  const resolved = applyEnvironment(baseModel(alias ?? null, model, provider), env, provider === null);
  const missing = missingSettings(resolved, provider === null);
  if (missing !== null) return llmNotSet(missing, home);
  resolved.capabilities = inferCapabilities(resolved.model, resolved.capabilities);
  return resolved;
}

/**
 * The capabilities a model has by its name, added to the configured ones as Kimi CLI does
 * (`derive_model_capabilities`): a name with "thinking" or "reason" always thinks; Kimi Code's
 * `kimi-for-coding` / `kimi-code` think on request and take images and video.
 */
export function inferCapabilities(model: string, configured: readonly ModelCapability[]): ModelCapability[] {
  const capabilities = new Set<ModelCapability>(configured);
  const name = model.toLowerCase();
  if (name.includes('thinking') || name.includes('reason')) {
    capabilities.add('thinking');
    capabilities.add('always_thinking');
  } else if (model === 'kimi-for-coding' || model === 'kimi-code') {
    for (const capability of ['thinking', 'image_in', 'video_in'] as const) capabilities.add(capability);
  }
  return [...capabilities];
}

function baseModel(
  alias: string | null,
  model: ModelConfig | null,
  provider: ProviderConfig | null,
): ResolvedModel {
  const providerName = model && provider ? model.provider : null;
  return {
    status: 'ready',
    providerName,
    modelAlias: model ? alias : null,
    providerType: provider?.type ?? 'kimi',
    baseUrl: provider?.base_url ?? '',
    apiKey: provider?.api_key ?? '',
    model: model?.model ?? '',
    displayName: model?.display_name ?? null,
    maxContextSize: model?.max_context_size ?? ENV_MODEL_DEFAULT_MAX_CONTEXT_SIZE,
    capabilities: [...(model?.capabilities ?? [])],
    customHeaders: { ...(provider?.custom_headers ?? {}) },
    reasoningKey: provider?.reasoning_key ?? null,
    providerEnv: { ...(provider?.env ?? {}) },
    oauth: provider?.oauth ?? null,
    clampCompletion: true,
    envOverrides: [],
  };
}

function applyEnvironment(base: ResolvedModel, env: Env, fromEnvOnly: boolean): ResolvedModel {
  const out = base;
  const read = (name: string): string | undefined => {
    const value = env[name];
    if (value === undefined || value.trim() === '') return undefined;
    out.envOverrides.push(name);
    return value.trim();
  };

  const readUrl = (name: string): string | undefined => {
    const value = read(name);
    if (value !== undefined && !isHttpUrl(value)) throw envError(name, 'must be an http:// or https:// URL');
    return value;
  };

  const typeOverride = read('KIMI_TS_PROVIDER_TYPE');
  if (typeOverride !== undefined) out.providerType = parseProviderType(typeOverride);

  if (out.providerType === 'openai_legacy' || out.providerType === 'openai_responses') {
    out.baseUrl = readUrl('OPENAI_BASE_URL') ?? out.baseUrl;
    out.apiKey = read('OPENAI_API_KEY') ?? out.apiKey;
  }
  if (out.providerType !== 'kimi' && !fromEnvOnly) return out;

  out.baseUrl = readUrl('KIMI_BASE_URL') ?? out.baseUrl;
  out.apiKey = read('KIMI_API_KEY') ?? out.apiKey;
  out.model = read('KIMI_MODEL_NAME') ?? out.model;
  const maxContext = read('KIMI_MODEL_MAX_CONTEXT_SIZE');
  if (maxContext !== undefined)
    out.maxContextSize = parseIntVar('KIMI_MODEL_MAX_CONTEXT_SIZE', maxContext, 1);
  const capabilities = read('KIMI_MODEL_CAPABILITIES');
  if (capabilities !== undefined) out.capabilities = parseCapabilities(capabilities);
  const temperature = read('KIMI_MODEL_TEMPERATURE');
  if (temperature !== undefined) out.temperature = parseNumberVar('KIMI_MODEL_TEMPERATURE', temperature);
  const topP = read('KIMI_MODEL_TOP_P');
  if (topP !== undefined) out.topP = parseNumberVar('KIMI_MODEL_TOP_P', topP);
  const keep = read('KIMI_MODEL_THINKING_KEEP');
  if (keep !== undefined) out.thinkingKeep = parseLooseValue(keep);
  const cap = read('KIMI_MODEL_MAX_COMPLETION_TOKENS') ?? read('KIMI_MODEL_MAX_TOKENS');
  if (cap !== undefined) {
    const name = env.KIMI_MODEL_MAX_COMPLETION_TOKENS?.trim()
      ? 'KIMI_MODEL_MAX_COMPLETION_TOKENS'
      : 'KIMI_MODEL_MAX_TOKENS';
    const tokens = parseIntVar(name, cap, Number.MIN_SAFE_INTEGER);
    if (tokens > 0) out.maxTokens = tokens;
    else out.clampCompletion = false;
  }
  return out;
}

const ENDPOINTLESS_TYPES: ReadonlySet<string> = new Set(['_scripted_echo', '_echo', 'scripted', 'echo']);

function missingSettings(model: ResolvedModel, fromEnvOnly: boolean): string | null {
  // The scripted and echo providers play text locally: they need no endpoint.
  if (ENDPOINTLESS_TYPES.has(model.providerType)) return null;
  if (fromEnvOnly) {
    if (model.baseUrl === '' && model.model === '') return 'no model is configured';
    const unset = [model.baseUrl === '' && 'KIMI_BASE_URL', model.model === '' && 'KIMI_MODEL_NAME'].filter(
      Boolean,
    );
    if (unset.length === 0) return null;
    return `${unset.join(' and ')} must be set to configure a model from environment variables`;
  }
  const where = `provider ${JSON.stringify(model.providerName)} (model ${JSON.stringify(model.modelAlias)})`;
  if (model.baseUrl === '') return `${where} has an empty base_url`;
  if (model.model === '') return `${where} has an empty model name`;
  return null;
}

function envError(name: string, problem: string): ConfigError {
  return new ConfigError(`environment variable ${name}`, { keyPath: name, problem });
}

function parseProviderType(value: string): ProviderType {
  const found = PROVIDER_TYPES.find((type) => type === value);
  if (!found) throw envError('KIMI_TS_PROVIDER_TYPE', `must be one of ${PROVIDER_TYPES.join(', ')}`);
  return found;
}

function parseIntVar(name: string, value: string, min: number): number {
  const parsed = Number(value);
  if (!/^[+-]?\d+$/.test(value) || !Number.isSafeInteger(parsed))
    throw envError(name, 'must be a whole number');
  if (parsed < min) throw envError(name, `must be at least ${min}`);
  return parsed;
}

function parseNumberVar(name: string, value: string): number {
  const parsed = Number(value);
  if (!Number.isFinite(parsed)) throw envError(name, 'must be a number');
  return parsed;
}

/** A comma list; case and blanks are ignored, and so are names that are not capabilities. */
function parseCapabilities(value: string): ModelCapability[] {
  const wanted = new Set(value.split(',').map((item) => item.trim().toLowerCase()));
  return MODEL_CAPABILITIES.filter((capability) => wanted.has(capability));
}

/** A one-line description of the model that is safe to log: no API key, no header values. */
export function describeResolvedModel(model: ResolvedModel): string {
  const name = model.modelAlias ?? model.model;
  const via = model.providerName ? `provider ${model.providerName}` : 'environment';
  return `${name} (${model.providerType} ${model.model} at ${model.baseUrl || 'default endpoint'}, ${via}, context ${model.maxContextSize})`;
}

/** An environment value as JSON would read it (`3`, `true`), else as the text it is (`all`). */
function parseLooseValue(text: string): string | number | boolean {
  if (text === 'true' || text === 'false') return text === 'true';
  const number = Number(text);
  return Number.isFinite(number) ? number : text;
}
