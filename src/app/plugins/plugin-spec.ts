import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { builtOnFirstUse } from '../../util/built-on-first-use.js';
import { PluginError } from './plugin-error.js';
import { isRelativePath, resolveInsidePlugin } from './plugin-paths.js';

export { PluginError };

/**
 * `plugin.json`, in the shape Kimi CLI installs (and shares with other agents under
 * `~/.config/agents/plugins/`): a name and version, tools that run a command with their JSON
 * parameters on stdin, and host values (`api_key`, `base_url`) to inject into the plugin's config
 * file at install and into its tools' environment when they run.
 *
 * A plugin is someone else's code: the file is checked strictly (an unknown or ill-typed field is
 * refused, by name), and every path in it must resolve, symlinks followed, inside the plugin's folder.
 */

export const PLUGIN_JSON = 'plugin.json';

/** The host values a plugin may ask for. */
export const HOST_VALUE_KEYS = ['api_key', 'base_url'] as const;

/**
 * The schema of `plugin.json`, built on first use: most sessions have no plugin, and making it at
 * load was part of every start's time to the first model request.
 */
function buildSpecSchema() {
  /** A dotted path into the config file; no segment may reach an object's prototype. */
  const injectPath = z
    .string()
    .regex(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/, 'a dotted path of letters, digits, _ or -')
    .refine(
      (path) => !path.split('.').some((key) => ['__proto__', 'prototype', 'constructor'].includes(key)),
      {
        message: 'may not name __proto__, prototype or constructor',
      },
    );

  const toolSchema = z.strictObject({
    name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ or -, at most 64'),
    description: z.string().default(''),
    /** The program and its arguments, run in the plugin's folder. */
    command: z.array(z.string().min(1)).min(1),
    parameters: z.record(z.string(), z.unknown()).optional(),
  });

  const specSchema = z.strictObject({
    name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'a folder name: letters, digits, ., _ or -'),
    version: z.string().min(1),
    description: z.string().default(''),
    author: z.union([z.string(), z.record(z.string(), z.string())]).optional(),
    homepage: z.string().optional(),
    license: z.string().optional(),
    keywords: z.array(z.string()).optional(),
    config_file: z.string().min(1).optional(),
    /** Where to put which host value: `{"apiKey": "api_key"}`. */
    inject: z.record(injectPath, z.enum(HOST_VALUE_KEYS)).default({}),
    tools: z.array(toolSchema).default([]),
    runtime: z.strictObject({ host: z.string(), host_version: z.string() }).optional(),
  });
  return specSchema;
}

const specSchema = builtOnFirstUse(buildSpecSchema);

export type PluginSpec = z.output<ReturnType<typeof buildSpecSchema>>;
export type PluginToolSpec = PluginSpec['tools'][number];

/** Reads and checks `<dir>/plugin.json`; the error names the file, the field and what is wrong. */
export async function readPluginSpec(dir: string): Promise<PluginSpec> {
  const file = join(dir, PLUGIN_JSON);
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(await resolveInsidePlugin(dir, PLUGIN_JSON, PLUGIN_JSON), 'utf8'));
  } catch (error) {
    if (error instanceof PluginError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new PluginError(code === 'ENOENT' ? `No ${PLUGIN_JSON} in ${dir}.` : `${file} is not valid JSON.`);
  }
  const parsed = specSchema().safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new PluginError(`${file}: ${issue.path.join('.') || 'the file'}: ${issue.message}`);
  }
  const spec = parsed.data;
  if (Object.keys(spec.inject).length > 0 && !spec.config_file) {
    throw new PluginError(`${file}: "inject" needs a "config_file" to inject into.`);
  }
  await checkPaths(dir, spec);
  return spec;
}

/** config_file and every relative path a tool's command names must stay inside the plugin folder. */
async function checkPaths(dir: string, spec: PluginSpec): Promise<void> {
  if (spec.config_file) await resolveInsidePlugin(dir, spec.config_file, 'config_file');
  for (const [index, tool] of spec.tools.entries()) {
    for (const [position, word] of tool.command.entries()) {
      if (isRelativePath(word)) await resolveInsidePlugin(dir, word, `tools.${index}.command.${position}`);
    }
  }
}

/** Writes host values into the plugin's config file at the dotted paths its `inject` names. */
export async function injectConfig(
  dir: string,
  spec: PluginSpec,
  values: Record<string, string>,
): Promise<void> {
  if (!spec.config_file || Object.keys(spec.inject).length === 0) return;
  // Resolved again here, in the installed copy: the file written is the one checked.
  const file = await resolveInsidePlugin(dir, spec.config_file, 'config_file');
  let config: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
      throw new Error('not an object');
    config = parsed as Record<string, unknown>;
  } catch {
    throw new PluginError(`The plugin's config file ${spec.config_file} is missing or not a JSON object.`);
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
    const next = Object.hasOwn(node, key) ? node[key] : undefined;
    if (next === null || typeof next !== 'object' || Array.isArray(next)) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys.at(-1)!] = value;
}
