import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { buildConfigSchemas } from './build-config-schema.js';
import { ConfigError, type ConfigProblem, formatKeyPath } from './config-error.js';
import { describeIssues } from './describe-issue.js';
import { defaultConfigFile, type Env, kimiTsHome } from './home.js';
import { type ConfigFormat, parseConfigText } from './parse-config-text.js';
import { plainConfig } from './plain-config.js';
import type { Config } from './schema.js';

export interface LoadConfigOptions {
  /** `--config-file PATH`: TOML, or JSON when the name ends in `.json`. The file must exist. */
  configFile?: string | undefined;
  /** `--config TEXT`: JSON is tried first, then TOML. */
  inlineConfig?: string | undefined;
  env?: Env | undefined;
  /** kimi-ts's data folder; defaults to `kimiTsHome(env)`. */
  home?: string | undefined;
}

export type ConfigSource =
  | { kind: 'file'; path: string }
  | { kind: 'inline' }
  /** The default file; `exists` is false when it was absent and defaults were used. */
  | { kind: 'default'; path: string; exists: boolean };

export interface LoadedConfig {
  config: Config;
  source: ConfigSource;
}

export const INLINE_SOURCE = '--config';

/** Loads and validates the config; throws `ConfigError` (file, key, problem) when it is unusable. */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<LoadedConfig> {
  const { configFile, inlineConfig } = options;
  if (configFile !== undefined && inlineConfig !== undefined) {
    throw new ConfigError(INLINE_SOURCE, { keyPath: '', problem: 'cannot be combined with --config-file' });
  }
  if (inlineConfig !== undefined) {
    return { config: parseInlineConfig(inlineConfig), source: { kind: 'inline' } };
  }
  if (configFile !== undefined) {
    const text = await readConfigFile(configFile, true);
    return {
      config: parseConfigFileText(text ?? '', configFile),
      source: { kind: 'file', path: configFile },
    };
  }
  const path = defaultConfigFile(options.home ?? kimiTsHome(options.env ?? process.env));
  const text = await readConfigFile(path, false);
  if (text === null)
    return { config: validateConfig({}, path), source: { kind: 'default', path, exists: false } };
  return { config: parseConfigFileText(text, path), source: { kind: 'default', path, exists: true } };
}

export function formatForFile(path: string): ConfigFormat {
  return extname(path).toLowerCase() === '.json' ? 'json' : 'toml';
}

export function parseConfigFileText(text: string, path: string): Config {
  const parsed = parseConfigText(text, formatForFile(path));
  if (!parsed.ok) throw new ConfigError(path, parsed.problem);
  return validateConfig(parsed.value, path);
}

export function parseInlineConfig(text: string): Config {
  if (text.trim() === '') throw new ConfigError(INLINE_SOURCE, { keyPath: '', problem: 'must not be empty' });
  const asJson = parseConfigText(text, 'json');
  if (asJson.ok) return validateConfig(asJson.value, INLINE_SOURCE);
  const asToml = parseConfigText(text, 'toml');
  if (asToml.ok) return validateConfig(asToml.value, INLINE_SOURCE);
  // Report the error of the format the text was most likely meant to be in.
  const problem = text.trimStart().startsWith('{') ? asJson.problem : asToml.problem;
  throw new ConfigError(INLINE_SOURCE, problem);
}

/** Checks a parsed config against the schema and the cross-references between its tables. */
export function validateConfig(raw: unknown, source: string): Config {
  const config = plainConfig(raw) ?? parsedBySchema(raw, source);
  const problems = crossReferenceProblems(config);
  if (problems.length > 0) throw new ConfigError(source, problems);
  return config;
}

let configSchema: ReturnType<typeof buildConfigSchemas>['configSchema'] | undefined;

/** The config as the zod schema makes it (built on first use), or its problems in the file's words. */
function parsedBySchema(raw: unknown, source: string): Config {
  configSchema ??= buildConfigSchemas().configSchema;
  // Parsed once per run: interpreting is cheaper than compiling the fast path zod builds for reuse.
  const parsed = configSchema.safeParse(raw, { jitless: true });
  if (!parsed.success) throw new ConfigError(source, describeIssues(parsed.error.issues, raw));
  return parsed.data;
}

function crossReferenceProblems(config: Config): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  if (config.default_model !== '' && !Object.hasOwn(config.models, config.default_model)) {
    problems.push({
      keyPath: 'default_model',
      problem: `names model ${JSON.stringify(config.default_model)}, which is not defined under [models]`,
    });
  }
  for (const [alias, model] of Object.entries(config.models)) {
    if (!Object.hasOwn(config.providers, model.provider)) {
      problems.push({
        keyPath: formatKeyPath(['models', alias, 'provider']),
        problem: `names provider ${JSON.stringify(model.provider)}, which is not defined under [providers]`,
      });
    }
  }
  return problems;
}

/** Reads a config file; `null` when an optional file is absent. */
async function readConfigFile(path: string, mustExist: boolean): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && !mustExist) return null;
    const problem =
      code === 'ENOENT'
        ? 'file not found'
        : code === 'EISDIR'
          ? 'is a directory, not a file'
          : code === 'EACCES' || code === 'EPERM'
            ? 'cannot be read (permission denied)'
            : `cannot be read (${code ?? 'unknown error'})`;
    throw new ConfigError(path, { keyPath: '', problem });
  }
}
