import { readFileSync } from 'node:fs';

/** The version the bundle was built with (scripts/bundle.mjs defines it); undefined in tsc's output. */
declare const __kimiBundledVersion: string | undefined;

/**
 * The package version. The bundle carries it as text (a read of package.json at load was ~0.25 ms
 * of CPU on the path to the first model request, Node 22); the unbundled modules read it once from
 * package.json next to the built code.
 */
export const VERSION: string =
  typeof __kimiBundledVersion === 'string'
    ? __kimiBundledVersion
    : (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string })
        .version;
