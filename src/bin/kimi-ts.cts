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
//
// `--version` and `--help` alone are answered from `quick-answers.json` (scripts/quick-answers.mjs
// writes it at build time from what the CLI itself prints), without loading the bundle at all.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  type Stats,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { Script } from 'node:vm';

/**
 * Set on globalThis by the single executable's entry (src/bin/sea-main.cts): packages kept out of
 * the bundle load from `moduleDir` (beside the executable), and `optional` names them.
 */
const SEA_RUNTIME = Symbol.for('kimi-ts.sea');
interface SeaRuntime {
  moduleDir: string;
  optional: Record<string, string>;
}

/** Set on globalThis by the CLI (src/app/run-completed.ts) once a run has gone through a turn. */
const RUN_COMPLETED = Symbol.for('kimi-ts.run-completed');

const bundleFile = join(__dirname, 'cli.bundle.cjs');
/** The unbundled command line module (tsc's output), run with `--debug` or when there is no bundle. */
const UNBUNDLED_CLI = join(__dirname, '..', 'cli', 'cli.js');
/** `{ version, help }`: the CLI's own answers to `--version` and `--help`, recorded at build time. */
const quickAnswersFile = join(__dirname, 'quick-answers.json');

/** Answers `--version` / `--help` given alone; false when the CLI must run (or nothing was recorded). */
function answeredQuickly(args: readonly string[]): boolean {
  if (args.length !== 1) return false;
  const key =
    args[0] === '--version' || args[0] === '-V'
      ? 'version'
      : args[0] === '--help' || args[0] === '-h'
        ? 'help'
        : undefined;
  if (key === undefined) return false;
  let text: unknown;
  try {
    text = (JSON.parse(readFileSync(quickAnswersFile, 'utf8')) as Record<string, unknown>)[key];
  } catch {
    return false;
  }
  if (typeof text !== 'string') return false;
  writeToStdout(text);
  return true;
}

/**
 * Writes straight to file descriptor 1: `process.stdout` would first build a stream (and load the
 * modules behind it) for this one write, a few milliseconds of a start that takes thirty on Node 22.
 * What a non-blocking descriptor does not take at once goes through `process.stdout`; a reader that
 * went away (EPIPE: `kimi-ts --help | head -1`) is not an error, as in the CLI.
 */
function writeToStdout(text: string): void {
  const bytes = Buffer.from(text);
  let written = 0;
  try {
    while (written < bytes.length) written += writeSync(1, bytes, written);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EAGAIN') process.stdout.write(bytes.subarray(written));
  }
}

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

/**
 * Runs `work` (compiling with a code cache, or making one) with V8 checksumming the cache's content.
 * V8 checks a cache's header (its version, flags, the source's length) and trusts the rest unless
 * told to: a cache damaged behind an intact header made V8 abort the process while reading it. On
 * for these two calls only: Node's own built-ins carry caches made without a checksum, which V8
 * would reject while the flag is on. A checksum over the 2 MB cache costs about half a millisecond.
 */
function withCacheChecksum<T>(work: () => T): T {
  setFlagsFromString('--verify-snapshot-checksum');
  try {
    return work();
  } finally {
    setFlagsFromString('--no-verify-snapshot-checksum');
  }
}

/**
 * Writes the cache atomically and removes the caches of other builds, which nothing will read again.
 * The cache carries a hash of V8's flags: they are put back as they were at compile time first.
 */
function saveCache(file: string, script: Script, tuning: StartUpTuning): void {
  try {
    const dir = dirname(file);
    mkdirSync(dir, { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    tuning.flagsAsCompiled();
    writeFileSync(
      temporary,
      withCacheChecksum(() => script.createCachedData()),
    );
    renameSync(temporary, file);
    for (const name of readdirSync(dir)) {
      if (/^cli-.*\.bin$/.test(name) && name !== basename(file)) rmSync(join(dir, name), { force: true });
    }
  } catch {
    // A cache that cannot be written only makes the next start slower.
  }
}

/** The package a module specifier names (`@scope/name/sub` → `@scope/name`). */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/**
 * The `require` the bundle gets. In the single executable it looks beside the executable, and a
 * missing optional package is reported by name with the command that installs it there.
 */
function requireForBundle(): NodeJS.Require {
  const sea = (globalThis as Record<symbol, unknown>)[SEA_RUNTIME] as SeaRuntime | undefined;
  if (sea === undefined) return createRequire(bundleFile);
  const modules = join(sea.moduleDir, 'node_modules');
  const beside = createRequire(join(modules, '.kimi-ts-sea'));
  // What the executable carries (the shell parser), extracted beside this launcher: loaded from there.
  const carried = join(__dirname, '..', '..', 'node_modules');
  const fromCarried = createRequire(join(carried, '.kimi-ts-sea'));
  const isCarried = (specifier: string) =>
    !isBuiltin(specifier) && existsSync(join(carried, packageOf(specifier), 'package.json'));
  // Only the node_modules beside the executable: Node's own lookup goes on to every parent folder's
  // node_modules (an executable in /tmp/x/ would load /tmp/node_modules/<name>, which any user of the
  // machine can plant: a provider SDK holding the key, or the shell parser the policy reads) and to
  // its global folders.
  const onlyBeside = (specifier: string): void => {
    const local =
      isBuiltin(specifier) ||
      specifier.startsWith('.') ||
      isAbsolute(specifier) ||
      existsSync(join(modules, packageOf(specifier), 'package.json'));
    if (!local)
      throw Object.assign(new Error(`Cannot find module '${specifier}'`), { code: 'MODULE_NOT_FOUND' });
  };
  const wrapped = ((specifier: string) => {
    const name = packageOf(specifier);
    if (isCarried(specifier)) return fromCarried(specifier);
    try {
      onlyBeside(specifier);
      return beside(specifier);
    } catch (error) {
      const version = sea.optional[name];
      if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND' || version === undefined) throw error;
      throw new Error(
        `This needs the package ${name}, which the kimi-ts executable does not contain. Install it beside ` +
          `the executable: npm install --prefix ${JSON.stringify(sea.moduleDir)} ${name}@${version}`,
      );
    }
  }) as NodeJS.Require;
  const resolve = ((specifier: string, options?: { paths?: string[] }) => {
    if (isCarried(specifier)) return fromCarried.resolve(specifier, options);
    onlyBeside(specifier);
    return beside.resolve(specifier, options);
  }) as NodeJS.RequireResolve;
  resolve.paths = beside.resolve.paths;
  return Object.assign(wrapped, { resolve, cache: beside.cache, main: beside.main });
}

/**
 * The V8 flags the CLI sets while it runs, set before the bundle is compiled. A code cache carries a
 * hash of V8's flags and is rejected by a process whose flags differ: the bash grammar's loader keeps
 * WebAssembly in the baseline compiler (src/policy/wasm-baseline-compiler.ts), and a cache written
 * at the exit of any run that parsed a Shell command was rejected by every next start, which then
 * compiled the whole bundle again (and wrote a cache the next one rejected). With the flags set from
 * the start, the cache is written and read under the same flags. Node's HTTP parser (WebAssembly,
 * compiled later) stays in the baseline compiler too: it parses a few kilobytes per model response.
 */
const RUNTIME_V8_FLAGS = ['--no-wasm-dynamic-tiering', '--no-wasm-tier-up'];

/**
 * Node's built-in modules every agent start loads, loaded before the launcher changes a V8 flag.
 * Node compiles its built-ins with a code cache made under its default flags, and V8 rejects a code
 * cache made under other flags: once a flag has changed (RUNTIME_V8_FLAGS, the start-up tuning),
 * each built-in loaded after is compiled from source. For these, the first in a print run's path
 * to its first model request, that took ~3x as long (Node 22: ~8 ms of CPU before the request).
 */
const BUILT_INS_BEFORE_V8_FLAGS = [
  'node:crypto',
  'node:fs/promises',
  'node:http',
  'node:perf_hooks',
  'node:async_hooks',
  'node:timers/promises',
  // commander's `require('node:process')` (a module whose body is `module.exports = process`).
  'node:process',
];

/**
 * How long start-up lasts for V8's tuning below/**
 * How long start-up lasts for V8's tuning below: longer than a short print session (a quarter of a
 * second here, a few times that on a loaded machine), short against a session a person works in.
 * `KIMI_TS_START_UP_MS` sets it (tests end start-up at once with 0).
 */
const START_UP_MS = /^\d+$/.test(process.env.KIMI_TS_START_UP_MS ?? '')
  ? Number(process.env.KIMI_TS_START_UP_MS)
  : 3000;

/**
 * V8 tuned for start-up, and back to its defaults once start-up is over (START_UP_MS), but for the
 * young generation's growth, which stays off. Start-up is a burst: each of thousands of functions
 * runs a few times (module bodies, schema builders, the first request), and the little code that
 * looks hot in it is seldom hot afterwards.
 *
 * - No compiler for JavaScript beyond bytecode during start-up: Maglev and TurboFan compiled ~150
 *   functions of the burst on worker threads, which cost CPU, compiler zones and megabytes of the
 *   node executable's code paged in; Sparkplug's baseline code took another 1.5 MiB for little
 *   speed in a burst. The interpreter runs start-up at the same CPU cost or less.
 * - The young generation does not grow during start-up: V8 doubled it up to 2 × 8 MiB because
 *   nearly everything start-up allocates survives (it is kept), and the larger semi-spaces were
 *   touched page by page until exit. `--max-semi-space-size` cannot be set once the heap exists;
 *   the growth factor is read at each growth. It stays at 1 after start-up too (not part of the
 *   tuning that ends): every command a Shell step runs forks this process, and a fork copies the
 *   page tables of its resident anonymous memory, which the child then tears down at exec (here
 *   ~0.04 ms of CPU per MiB per command). Grown by a session's set-up, the young generation held
 *   ~7 MiB of it (of ~32) for the rest of the session; a small young generation collects more
 *   often, but what a step allocates (~0.4 MiB) mostly dies young and costs little to scavenge.
 *
 * The largest process of the 3-step print session, Node 20/22/24: −10/−13/−9 MiB for the two.
 * Flags a person gave Node for the same things (NODE_OPTIONS, the command line) are left alone.
 * The flags are set before the bundle is compiled and are part of the code cache's flag hash: the
 * cache is written under them (flagsAsCompiled), even by a run that outlasted start-up.
 */
class StartUpTuning {
  private readonly flags: { startUp: string[]; settled: string[] } = { startUp: [], settled: [] };
  private settled = false;

  constructor() {
    const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].map((arg) =>
      arg.replace(/_/g, '-'),
    );
    const gives = (pattern: RegExp) => given.some((arg) => pattern.test(arg));
    if (!gives(/^--(no-)?(sparkplug|maglev|turbofan|opt|max-opt|jitless)\b/)) {
      this.flags.startUp.push('--no-sparkplug', '--no-maglev', '--no-turbofan');
      // Node 22 and later optimize with Maglev and TurboFan by default, Node 20 with TurboFan alone;
      // Sparkplug is on by default on all of them.
      const maglev = Number(process.versions.node.split('.')[0]) >= 22;
      this.flags.settled.push('--sparkplug', maglev ? '--maglev' : '--no-maglev', '--turbofan');
    }
    if (!gives(/^--(semi-space-growth-factor|max-semi-space-size|min-semi-space-size)\b/)) {
      // Not put back to V8's default (2) once start-up is over: see above.
      this.flags.startUp.push('--semi-space-growth-factor=1');
    }
  }

  /** Before the bundle is compiled; start-up ends START_UP_MS after. */
  begin(): void {
    for (const name of BUILT_INS_BEFORE_V8_FLAGS) require(name);
    // node:async_hooks loads AsyncLocalStorage's implementation (a built-in of its own) on first
    // access of the class, which the CLI's wire context (src/wire/current-wire.ts) does at load:
    // after the flags it took ~0.4 ms of CPU instead of ~0.04 (Node 22 and 24). Reading the class
    // loads it; no instance is made, so no async hook is installed.
    void (require('node:async_hooks') as typeof import('node:async_hooks')).AsyncLocalStorage;
    // The same for the global `navigator` (Node 21 and later build it from a built-in module on
    // first use): zod asks `typeof navigator` at every start's first object parse (the config's),
    // and built after the flags it took ~0.45 ms of CPU instead of ~0.12 (Node 22 and 24).
    void (globalThis as { navigator?: unknown }).navigator;
    for (const flag of [...RUNTIME_V8_FLAGS, ...this.flags.startUp]) setFlagsFromString(flag);
    setTimeout(() => {
      this.settled = true;
      for (const flag of this.flags.settled) setFlagsFromString(flag);
    }, START_UP_MS).unref();
  }

  /** The flags as at compile time (the code cache's flag hash must be theirs), at exit. */
  flagsAsCompiled(): void {
    if (this.settled) for (const flag of this.flags.startUp) setFlagsFromString(flag);
  }
}

/**
 * Compiles the bundle, with the code cache when there is one that fits. Its own function so that the
 * cache's bytes and the file's are garbage once it returns: held by a frame of the bundle's run, they
 * were moved to the old generation with it and stayed (5 MB) until a full GC, which a short run never has.
 */
function compileBundle(stat: Stats, tuning: StartUpTuning): Script {
  tuning.begin();
  const cacheFile = cacheFileFor(stat.size, stat.mtimeMs);
  const cachedData = readOrUndefined(cacheFile);
  // The bundle is ASCII and already the function to compile (scripts/bundle.mjs). Read as latin1,
  // Node makes a string this large an external one (its bytes outside V8's heap, no UTF-8 decode),
  // which V8 compiles and keeps as the script's source without copying it into the heap.
  const source = readFileSync(bundleFile, 'latin1');
  const script = withCacheChecksum(() => new Script(source, { filename: bundleFile, cachedData }));
  if (process.env.KIMI_TS_DEBUG_CODE_CACHE === '1') {
    const verdict = cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'accepted';
    process.stderr.write(`kimi-ts code cache: ${verdict} (${cacheFile ?? 'off'})\n`);
  }
  if (cacheFile !== undefined && (cachedData === undefined || script.cachedDataRejected)) {
    process.once('exit', () => {
      if ((globalThis as Record<symbol, unknown>)[RUN_COMPLETED] === true)
        saveCache(cacheFile, script, tuning);
    });
  }
  return script;
}

function runBundle(stat: Stats): void {
  const tuning = new StartUpTuning();
  const script = compileBundle(stat, tuning);
  // Code compiled by node:vm has no import() of its own (short of an experimental Node feature), so
  // the bundle imports modules known only at run time, such as a user's tools, through this one.
  (globalThis as Record<symbol, unknown>)[Symbol.for('kimi-ts.import')] = (url: string) => import(url);
  const module = { exports: {} };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run(module.exports, requireForBundle(), module, bundleFile, __dirname);
}

// `--debug` prints stack traces of fatal errors: run the unbundled modules then, with source maps, so
// the traces name the TypeScript files and lines.
function runCli(): void {
  // The single executable carries no unbundled modules: its `--debug` runs the bundle.
  const debug =
    process.argv.includes('--debug') && statSync(UNBUNDLED_CLI, { throwIfNoEntry: false }) !== undefined;
  const bundleStat = debug ? undefined : statSync(bundleFile, { throwIfNoEntry: false });
  if (bundleStat) runBundle(bundleStat);
  else {
    if (debug) process.setSourceMapsEnabled(true);
    void import(pathToFileURL(UNBUNDLED_CLI).href);
  }
}

if (!answeredQuickly(process.argv.slice(2))) runCli();
