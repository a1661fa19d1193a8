import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';

/**
 * `plugin.json`, in the shape Kimi CLI installs (and shares with other agents under
 * `~/.config/agents/plugins/`): a name and version, tools that run a command with their JSON
 * parameters on stdin, and host values (`api_key`, `base_url`) to inject into the plugin's config
 * file at install and into its tools' environment when they run.
 */

export const PLUGIN_JSON = 'plugin.json';

const toolSchema = z.object({
  name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ or -, at most 64'),
  description: z.string().default(''),
  /** The program and its arguments, run in the plugin's folder. */
  command: z.array(z.string().min(1)).min(1),
  parameters: z.record(z.string(), z.unknown()).optional(),
});

const specSchema = z.looseObject({
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'a folder name: letters, digits, ., _ or -'),
  version: z.string().min(1),
  description: z.string().default(''),
  config_file: z.string().optional(),
  /** Where to put which host value: `{"apiKey": "api_key"}`. */
  inject: z.record(z.string(), z.string()).default({}),
  tools: z.array(toolSchema).default([]),
  runtime: z.object({ host: z.string(), host_version: z.string() }).optional(),
});

export type PluginSpec = z.output<typeof specSchema>;
export type PluginToolSpec = PluginSpec['tools'][number];

export class PluginError extends Error {
  override name = 'PluginError';
}

/** Reads and checks `<dir>/plugin.json`; the error names the file and what is wrong. */
export async function readPluginSpec(dir: string): Promise<PluginSpec> {
  const file = join(dir, PLUGIN_JSON);
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new PluginError(code === 'ENOENT' ? `No ${PLUGIN_JSON} in ${dir}.` : `${file} is not valid JSON.`);
  }
  const parsed = specSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new PluginError(`${file}: ${issue.path.join('.') || 'the file'}: ${issue.message}`);
  }
  if (Object.keys(parsed.data.inject).length > 0 && !parsed.data.config_file) {
    throw new PluginError(`${file}: "inject" needs a "config_file" to inject into.`);
  }
  return parsed.data;
}

/** Writes host values into the plugin's config file at the dotted paths its `inject` names. */
export async function injectConfig(
  dir: string,
  spec: PluginSpec,
  values: Record<string, string>,
): Promise<void> {
  if (!spec.config_file || Object.keys(spec.inject).length === 0) return;
  const file = join(dir, spec.config_file);
  let config: Record<string, unknown>;
  try {
    config = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  } catch {
    throw new PluginError(`The plugin's config file ${spec.config_file} is missing or not JSON.`);
  }
  for (const [path, key] of Object.entries(spec.inject)) {
    const value = values[key];
    if (value === undefined)
      throw new PluginError(`kimi-ts has no "${key}" to give the plugin (its inject asks for it).`);
    setPath(config, path.split('.'), value);
  }
  await writeFile(file, `${JSON.stringify(config, null, 2)}\n`);
  // The file may now hold a key: readable by its owner only.
  await chmod(file, 0o600);
}

function setPath(target: Record<string, unknown>, keys: string[], value: unknown): void {
  let node = target;
  for (const key of keys.slice(0, -1)) {
    const next = node[key];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys.at(-1)!] = value;
}
