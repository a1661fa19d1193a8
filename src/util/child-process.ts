import { createRequire } from 'node:module';

let loaded: typeof import('node:child_process') | undefined;

/**
 * node:child_process, loaded at the first spawn rather than with the CLI: a print run spawns nothing
 * before its first model request, and loading the module (node:dgram with it) is ~2 ms of that path.
 * A require, not `import()`: the bundle runs in a node:vm script, which has no `import()`.
 */
export function childProcess(): typeof import('node:child_process') {
  loaded ??= createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process');
  return loaded;
}
