import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Specifiers starting with this name a module of kimi-ts itself, e.g. `kimi-ts/tools/shell/shell`. */
export const BUILTIN_PREFIX = 'kimi-ts/';

/** The folder `kimi-ts/...` specifiers resolve in: `src/` when run from source, `dist/` when built. */
export const DEFAULT_BUILTIN_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Modules of kimi-ts that load by a static import, keyed by the path after `kimi-ts/`. */
export type BuiltinToolModules = Readonly<Record<string, () => Promise<object>>>;

export interface ModuleResolutionOptions {
  /** The folder of the agent spec that lists the tool: relative paths and packages resolve from here. */
  baseDir: string;
  builtinRoot?: string | undefined;
  /** `kimi-ts/<path>` specs found here load from this table instead of from `builtinRoot`. */
  builtinModules?: BuiltinToolModules | undefined;
}

/** Imports the module part of a tool spec: a built-in from the table if it is there, else by path. */
export async function importToolModule(
  specifier: string,
  options: ModuleResolutionOptions,
): Promise<Record<string, unknown>> {
  if (specifier.startsWith(BUILTIN_PREFIX) && options.builtinModules) {
    const path = specifier.slice(BUILTIN_PREFIX.length).replace(/\.(js|ts)$/, '');
    const load = Object.hasOwn(options.builtinModules, path) ? options.builtinModules[path] : undefined;
    if (load) return (await load()) as Record<string, unknown>;
  }
  const url = resolveToolModule(specifier, options);
  // Inside the bundled CLI the launcher (src/bin/kimi-ts.cts) lends its own import(): code that
  // node:vm compiled cannot import() without an experimental Node feature.
  const hostImport = (globalThis as Record<symbol, unknown>)[Symbol.for('kimi-ts.import')];
  const namespace = typeof hostImport === 'function' ? await hostImport(url) : await import(url);
  return namespace as Record<string, unknown>;
}

/**
 * Turns the module part of a `"module:Export"` tool spec into something `import()` loads:
 *
 * - `kimi-ts/<sub>`: a module of kimi-ts, `<builtinRoot>/<sub>` (`.js`, `.ts` or `/index.*` added);
 * - an absolute path, or a `file:` URL: that file;
 * - `./x` or `../x`: relative to `baseDir`;
 * - anything else: a package, looked up from `baseDir` (its `node_modules`), then from kimi-ts's own.
 *
 * A path without an extension also tries `.mjs`, `.js` and `.ts`. Throws an Error saying what was
 * tried when nothing is found.
 */
export function resolveToolModule(specifier: string, options: ModuleResolutionOptions): string {
  if (specifier.startsWith(BUILTIN_PREFIX)) {
    const root = options.builtinRoot ?? DEFAULT_BUILTIN_ROOT;
    return pathToFileURL(findFile(join(root, specifier.slice(BUILTIN_PREFIX.length)), specifier)).href;
  }
  if (specifier.startsWith('file:')) return specifier;
  if (isAbsolute(specifier)) return pathToFileURL(findFile(specifier, specifier)).href;
  if (specifier.startsWith('./') || specifier.startsWith('../')) {
    return pathToFileURL(findFile(resolve(options.baseDir, specifier), specifier)).href;
  }
  try {
    return pathToFileURL(createRequire(join(options.baseDir, 'agent-tools.cjs')).resolve(specifier)).href;
  } catch {
    // Not installed beside the agent: let import() look among kimi-ts's own dependencies.
    return specifier;
  }
}

function findFile(path: string, specifier: string): string {
  const candidates = [path];
  if (/\.js$/.test(path)) candidates.push(path.replace(/\.js$/, '.ts'));
  else if (!/\.(mjs|cjs|js|ts|mts)$/.test(path)) {
    candidates.push(
      `${path}.mjs`,
      `${path}.js`,
      `${path}.ts`,
      join(path, 'index.mjs'),
      join(path, 'index.js'),
      join(path, 'index.ts'),
    );
  }
  const found = candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
  if (!found) throw new Error(`module "${specifier}" not found (looked for ${candidates.join(', ')})`);
  return found;
}
