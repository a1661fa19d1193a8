#!/usr/bin/env node
// The `kimi-ts` command. It runs the bundled CLI (`cli.bundle.cjs`, made by scripts/bundle.mjs) with a
// V8 code cache, so a start does not parse and compile the same megabytes of JavaScript every time:
// this file is CommonJS because an ES module entry costs Node extra start-up work, and it compiles
// the bundle itself (node:vm) because that is the one way Node 20 takes a code cache.
//
// The cache lives in `<kimi-ts home>/cache/v8/` (or `KIMI_TS_CODE_CACHE_DIR`), keyed by the Node
// version and the bundle's size and time, so a new build or a new Node never reads a stale one; V8
// also checks it and rejects one that does not fit. It is written at exit, atomically, after a run
// that went as far as a turn (the CLI says so through RUN_COMPLETED), so it holds the code such a
// run compiles; the caches of other builds are removed then. `KIMI_TS_NO_CODE_CACHE=1` turns it off,
// `KIMI_TS_DEBUG_CODE_CACHE=1` says on stderr whether it was used. Without a bundle (a build from
// `tsc` alone), and with `--debug`, the unbundled `dist/cli/cli.js` runs instead.
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  type Stats,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Script } from 'node:vm';

/** Set on globalThis by the CLI (src/app/run-completed.ts) once a run has gone through a turn. */
const RUN_COMPLETED = Symbol.for('kimi-ts.run-completed');

const bundleFile = join(__dirname, 'cli.bundle.cjs');

function cacheFileFor(bundleSize: number, bundleTime: number): string | undefined {
  const env = process.env;
  if (env.KIMI_TS_NO_CODE_CACHE === '1') return undefined;
  const home = env.KIMI_TS_HOME || join(homedir(), '.kimi-ts');
  const dir = env.KIMI_TS_CODE_CACHE_DIR || join(home, 'cache', 'v8');
  const key = `${process.version}-${process.arch}-${bundleSize}-${Math.floor(bundleTime)}`;
  return join(dir, `cli-${key}.bin`);
}

function readOrUndefined(file: string | undefined): Buffer | undefined {
  if (file === undefined) return undefined;
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Writes the cache atomically and removes the caches of other builds, which nothing will read again. */
function saveCache(file: string, script: Script): void {
  try {
    const dir = dirname(file);
    mkdirSync(dir, { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, script.createCachedData());
    renameSync(temporary, file);
    for (const name of readdirSync(dir)) {
      if (/^cli-.*\.bin$/.test(name) && name !== basename(file)) rmSync(join(dir, name), { force: true });
    }
  } catch {
    // A cache that cannot be written only makes the next start slower.
  }
}

function runBundle(stat: Stats): void {
  const cacheFile = cacheFileFor(stat.size, stat.mtimeMs);
  const cachedData = readOrUndefined(cacheFile);
  // The bundle is ASCII (esbuild escapes the rest), so latin1 reads it without a UTF-8 decode.
  const source = readFileSync(bundleFile, 'latin1').replace(/^#!.*/, '');
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: bundleFile,
    cachedData,
  });
  if (process.env.KIMI_TS_DEBUG_CODE_CACHE === '1') {
    const verdict = cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'accepted';
    process.stderr.write(`kimi-ts code cache: ${verdict} (${cacheFile ?? 'off'})\n`);
  }
  if (cacheFile !== undefined && (cachedData === undefined || script.cachedDataRejected)) {
    process.once('exit', () => {
      if ((globalThis as Record<symbol, unknown>)[RUN_COMPLETED] === true) saveCache(cacheFile, script);
    });
  }
  // Code compiled by node:vm has no import() of its own (short of an experimental Node feature), so
  // the bundle imports modules known only at run time, such as a user's tools, through this one.
  (globalThis as Record<symbol, unknown>)[Symbol.for('kimi-ts.import')] = (url: string) => import(url);
  const module = { exports: {} };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run(module.exports, createRequire(bundleFile), module, bundleFile, __dirname);
}

// `--debug` prints stack traces of fatal errors: run the unbundled modules then, with source maps, so
// the traces name the TypeScript files and lines.
const debug = process.argv.includes('--debug');
const bundleStat = debug ? undefined : statSync(bundleFile, { throwIfNoEntry: false });
if (bundleStat) runBundle(bundleStat);
else {
  if (debug) process.setSourceMapsEnabled(true);
  void import(pathToFileURL(join(__dirname, '..', 'cli', 'cli.js')).href);
}
