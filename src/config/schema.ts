import type { z } from 'zod';
import { PROVIDER_TYPES, type ProviderType } from '../kosong/providers/provider-types.js';
import { buildConfigSchemas } from './build-config-schema.js';

/**
 * The config file's schema: Kimi CLI's keys, defaults and bounds, so an existing Kimi CLI
 * `config.toml` loads as is. Field names are the file's snake_case names. Unknown keys are dropped
 * silently rather than rejected, so a config written for a newer Kimi CLI still loads. The schemas
 * are written in build-config-schema.ts; loading a config does not need this module
 * (load-config.ts builds them only for a config that is not plainly valid).
 */

export { isHttpUrl } from './http-url.js';
export { MODEL_CAPABILITIES, type ModelCapability } from './model-capabilities.js';
export { PROVIDER_TYPES, type ProviderType };

export const {
  oauthRefSchema,
  providerSchema,
  modelSchema,
  loopControlSchema,
  backgroundSchema,
  subagentsSchema,
  notificationsSchema,
  serviceSchema,
  servicesSchema,
  sandboxSchema,
  trustSchema,
  checkpointsSchema,
  mcpSchema,
  hookEntrySchema,
  configSchema,
} = buildConfigSchemas();

export type ProviderConfig = z.output<typeof providerSchema>;
export type ModelConfig = z.output<typeof modelSchema>;
export type LoopControlConfig = z.output<typeof loopControlSchema>;
export type BackgroundConfig = z.output<typeof backgroundSchema>;
export type ServiceConfig = z.output<typeof serviceSchema>;
export type CheckpointsConfig = z.output<typeof checkpointsSchema>;
export type HookEntryConfig = z.output<typeof hookEntrySchema>;

export type Config = z.output<typeof configSchema>;
/** A config as written in a file: every key may be left out. */
export type ConfigInput = z.input<typeof configSchema>;

/** The config used when no file exists. */
export function defaultConfig(): Config {
  return configSchema.parse({});
}
