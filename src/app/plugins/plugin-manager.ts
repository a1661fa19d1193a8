import type { ExecFileOptions } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { childProcess } from '../../util/child-process.js';
import { isDirectory } from '../../util/is-directory.js';
import { withTrustedPath } from '../../util/path-entries.js';
import { VERSION } from '../../version.js';
import { resolveInsidePlugin } from './plugin-paths.js';
import { injectConfig, PLUGIN_JSON, PluginError, type PluginSpec, readPluginSpec } from './plugin-spec.js';

/** Where plugins are installed: shared by the agents that follow the `~/.config/agents` layout. */
export function pluginsDir(userHome: string): string {
  return join(userHome, '.config', 'agents', 'plugins');
}

/**
 * Installs the plugin at `source` (a folder, or a git repository URL or path cloned for it) into
 * `<plugins>/<name>/`, replacing an older copy: its config file gets the host values its `inject`
 * asks for, its plugin.json the host that installed it. A failed install leaves nothing behind.
 */
export async function installPlugin(
  source: string,
  options: { pluginsDir: string; hostValues: Record<string, string>; cwd: string },
): Promise<PluginSpec> {
  const fetched = await fetchSource(source, options.cwd);
  try {
    const spec = await readPluginSpec(fetched.dir);
    const dest = join(options.pluginsDir, spec.name);
    await rm(dest, { recursive: true, force: true });
    await cp(fetched.dir, dest, { recursive: true, filter: (path) => basename(path) !== '.git' });
    try {
      await injectConfig(dest, spec, options.hostValues);
      const specFile = await resolveInsidePlugin(dest, PLUGIN_JSON, PLUGIN_JSON);
      const json = JSON.parse(await readFile(specFile, 'utf8')) as Record<string, unknown>;
      json.runtime = { host: 'kimi-ts', host_version: VERSION };
      await writeFile(specFile, `${JSON.stringify(json, null, 2)}\n`);
    } catch (error) {
      await rm(dest, { recursive: true, force: true });
      throw error;
    }
    return readPluginSpec(dest);
  } finally {
    await fetched.cleanup();
  }
}

export interface InstalledPlugin {
  dir: string;
  spec: PluginSpec;
}

/** The installed plugins, by name; folders without a readable plugin.json are left out. */
export async function listPlugins(dir: string): Promise<InstalledPlugin[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).sort();
  } catch {
    return [];
  }
  const found = await Promise.all(
    names.map(async (name) => {
      const pluginDir = join(dir, name);
      return readPluginSpec(pluginDir).then(
        (spec) => ({ dir: pluginDir, spec }),
        () => null,
      );
    }),
  );
  return found.filter((plugin): plugin is InstalledPlugin => plugin !== null);
}

export async function removePlugin(name: string, dir: string): Promise<void> {
  const target = join(dir, name);
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name) || !(await isDirectory(target))) {
    throw new PluginError(`No plugin named "${name}" is installed (in ${dir}).`);
  }
  await rm(target, { recursive: true, force: true });
}

/** `git clone` and the like; node:child_process loads at the first clone, not with the CLI. */
function run(file: string, args: readonly string[], options: ExecFileOptions) {
  return promisify(childProcess().execFile)(file, args, options);
}

/** A local folder as it is; anything else is taken for a git repository and cloned (shallow). */
async function fetchSource(
  source: string,
  cwd: string,
): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const local = resolve(cwd, source);
  if (await isDirectory(local)) return { dir: local, cleanup: async () => {} };
  if (/\.zip$/i.test(source)) {
    throw new PluginError(
      'Zip archives are not supported: unpack it and install the folder, or use a git URL.',
    );
  }
  const temp = await mkdtemp(join(tmpdir(), 'kimi-ts-plugin-'));
  const cleanup = () => rm(temp, { recursive: true, force: true });
  try {
    // `--`: a source that starts with a dash is a repository's name, not git's option
    // (`--upload-pack=…` runs a command). git from PATH's trusted entries (src/util/path-entries.ts).
    await run('git', ['clone', '--depth', '1', '--quiet', '--', source, join(temp, 'source')], {
      timeout: 120_000,
      env: withTrustedPath(process.env, [cwd]),
    });
  } catch (error) {
    await cleanup();
    const detail = (error as { stderr?: string }).stderr?.trim() || (error as Error).message;
    throw new PluginError(
      withoutCredentials(
        `${source} is neither a folder nor a git repository that could be cloned (${detail}).`,
      ),
    );
  }
  return { dir: join(temp, 'source'), cleanup };
}

/** A URL's `user:token@` never reaches a message. */
function withoutCredentials(text: string): string {
  return text.replace(/(\/\/)[^/@\s]+@/g, '$1***@');
}
