import { readFile } from 'node:fs/promises';
import { parse as parseToml, stringify as stringifyToml } from 'smol-toml';
import { z } from 'zod';
import { writeFileAtomic } from '../util/atomic-file.js';
import { MANAGED_MODEL_PREFIX, MANAGED_OAUTH_KEY, MANAGED_PROVIDER } from './kimi-code-endpoints.js';

/** A model the Kimi Code API lists (`GET /models`). */
export interface ManagedModel {
  id: string;
  contextLength: number;
  capabilities: string[];
}

const modelsListSchema = z.object({
  data: z.array(
    z.looseObject({
      id: z.string().min(1),
      context_length: z.number().int().positive().optional(),
      supports_reasoning: z.boolean().optional(),
      supports_image_in: z.boolean().optional(),
      supports_video_in: z.boolean().optional(),
    }),
  ),
});

/** Used when the API does not say a model's window. */
const DEFAULT_CONTEXT_LENGTH = 262_144;

export function parseModelsList(value: unknown): ManagedModel[] | null {
  const parsed = modelsListSchema.safeParse(value);
  if (!parsed.success) return null;
  return parsed.data.data.map((model) => ({
    id: model.id,
    contextLength: model.context_length ?? DEFAULT_CONTEXT_LENGTH,
    capabilities: [
      model.supports_reasoning && 'thinking',
      model.supports_image_in && 'image_in',
      model.supports_video_in && 'video_in',
    ].filter((c): c is string => typeof c === 'string'),
  }));
}

type Table = Record<string, unknown>;

async function readTable(file: string): Promise<Table> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return {};
  }
  // A config kimi-ts could not read is not rewritten (its owner's content would be lost).
  return parseToml(text) as Table;
}

function tableAt(root: Table, key: string): Table {
  const value = root[key];
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Table;
  const table: Table = {};
  root[key] = table;
  return table;
}

/**
 * Writes what `kimi login` writes into the config (Kimi CLI's shape, which Moonshot's agent SDK reads
 * to tell whether one is logged in): the `managed:kimi-code` provider with an empty `api_key` and an
 * `oauth` reference to the stored tokens, a `kimi-code/<id>` model per listed model, and
 * `default_model` when none of the user's own is set. Other keys are kept; comments are not.
 */
export async function writeManagedConfig(
  file: string,
  apiBaseUrl: string,
  models: ManagedModel[],
): Promise<string> {
  const config = await readTable(file);
  removeManaged(config);
  tableAt(config, 'providers')[MANAGED_PROVIDER] = {
    type: 'kimi',
    base_url: apiBaseUrl,
    api_key: '',
    oauth: { storage: 'file', key: MANAGED_OAUTH_KEY },
  };
  const modelTables = tableAt(config, 'models');
  for (const model of models) {
    modelTables[`${MANAGED_MODEL_PREFIX}${model.id}`] = {
      provider: MANAGED_PROVIDER,
      model: model.id,
      max_context_size: model.contextLength,
      capabilities: model.capabilities,
    };
  }
  const chosen = `${MANAGED_MODEL_PREFIX}${models[0]?.id ?? ''}`;
  const current = typeof config.default_model === 'string' ? config.default_model : '';
  if (current === '' || !Object.hasOwn(modelTables, current)) config.default_model = chosen;
  await writeFileAtomic(file, stringifyToml(config), { mode: 0o600 });
  return typeof config.default_model === 'string' ? config.default_model : chosen;
}

/** `logout`: the managed provider and its models leave the config; returns whether any were there. */
export async function removeManagedConfig(file: string): Promise<boolean> {
  const config = await readTable(file);
  if (!removeManaged(config)) return false;
  await writeFileAtomic(file, stringifyToml(config), { mode: 0o600 });
  return true;
}

function removeManaged(config: Table): boolean {
  let removed = false;
  const providers = config.providers as Table | undefined;
  if (providers && Object.hasOwn(providers, MANAGED_PROVIDER)) {
    delete providers[MANAGED_PROVIDER];
    removed = true;
  }
  const models = config.models as Table | undefined;
  for (const [alias, model] of Object.entries(models ?? {})) {
    if ((model as Table | undefined)?.provider === MANAGED_PROVIDER) {
      delete models?.[alias];
      removed = true;
    }
  }
  if (typeof config.default_model === 'string' && config.default_model.startsWith(MANAGED_MODEL_PREFIX)) {
    delete config.default_model;
  }
  return removed;
}
