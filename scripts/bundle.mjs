// Bundles the command line into one CommonJS file, dist/bin/cli.bundle.cjs, which the launcher
// dist/bin/kimi-ts.cjs (src/bin/kimi-ts.cts) runs with a V8 code cache. Reading one file instead of
// hundreds of ES modules is most of what makes the CLI start fast. Runs after `tsc` and copy-assets:
// the bundle reads its text assets (tool descriptions, prompts, the default agent) from dist/.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const dist = join(root, 'dist');
const outdir = join(dist, 'bin');

/**
 * Source files find their assets with `new URL('./x.md', import.meta.url)`. Inside the bundle that
 * URL is the bundle's own, so each such URL is rewritten to lead from dist/bin/ to where
 * copy-assets put the asset.
 */
const assetUrls = {
  name: 'asset-urls',
  setup(esbuild) {
    esbuild.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (!args.path.startsWith(src + sep)) return undefined;
      const text = await readFile(args.path, 'utf8');
      const contents = text.replace(
        /new URL\((['"])([^'"]+)\1, import\.meta\.url\)/g,
        (_match, _quote, path) => {
          const inDist = join(dist, relative(src, resolve(dirname(args.path), path)));
          let fromBundle = relative(outdir, inDist).split(sep).join('/');
          if (/(^|\/)\.{0,2}$/.test(path) || path.endsWith('/')) fromBundle += '/';
          return `new URL(${JSON.stringify(fromBundle)}, import.meta.url)`;
        },
      );
      return { contents, loader: 'ts' };
    });
  },
};

/**
 * commander requires node:child_process at load, for subcommands that are separate executables (which
 * the CLI has none of). Loading it (and node:dgram behind it) is ~2 ms of a print run's path to its
 * first model request, where nothing else spawns yet: the module is required when first used instead.
 */
const lazyCommanderChildProcess = {
  name: 'lazy-commander-child-process',
  setup(esbuild) {
    esbuild.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      const eager = "const childProcess = require('node:child_process');";
      if (!text.includes(eager))
        throw new Error(`${args.path}: no \`${eager}\` to make lazy (commander changed?)`);
      const lazy =
        "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };";
      return { contents: text.replace(eager, lazy), loader: 'js' };
    });
  },
};

/**
 * zod's `z.locales` namespace holds its error messages in ~50 languages (~300 KiB of the bundle's
 * 3 MiB), and the CLI speaks English only (zod's default, `en`, which zod itself imports directly).
 * Every start reads and keeps the bundle's whole text: the namespace keeps `en` alone.
 */
const englishZodLocaleOnly = {
  name: 'english-zod-locale-only',
  setup(esbuild) {
    esbuild.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      const english = 'export { default as en } from "./en.js";';
      if (!text.includes(english)) throw new Error(`${args.path}: no \`${english}\` to keep (zod changed?)`);
      return { contents: `${english}\n`, loader: 'js' };
    });
  },
};

/**
 * zod's `z.fromJSONSchema` (JSON Schema → zod) is never called by the CLI, and its module's body
 * copies every schema builder of zod into an object at load (~0.5 ms of CPU on the path to the
 * first model request, Node 22): zod's namespace is built without it.
 */
const noZodFromJsonSchema = {
  name: 'no-zod-from-json-schema',
  setup(esbuild) {
    esbuild.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]classic[\\/]external\.js$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      const line = 'export { fromJSONSchema } from "./from-json-schema.js";';
      if (!text.includes(line)) throw new Error(`${args.path}: no \`${line}\` to leave out (zod changed?)`);
      return { contents: text.replace(line, ''), loader: 'js' };
    });
  },
};

const bundleFile = join(outdir, 'cli.bundle.cjs');
/** The bundle is one function expression of CommonJS's module arguments (src/bin/kimi-ts.cts calls it). */
const BUNDLE_WRAPPER_START = '(function (exports, require, module, __filename, __dirname) {';
const BUNDLE_WRAPPER_END = '\n})';

/** Big packages used only by some runs (another provider, MCP, web page extraction) stay outside
 * the bundle and load from node_modules when a run needs them. */
const EXTERNAL_PACKAGES = [
  '@anthropic-ai/sdk',
  '@google/genai',
  '@modelcontextprotocol/sdk',
  'linkedom',
  '@mozilla/readability',
  'turndown',
  // The shell parser finds its WebAssembly beside its own files; it loads on the first Shell decision.
  'web-tree-sitter',
  // The fleet's queue and Redis client load only for `submit`, `worker` and `fleet`.
  'bullmq',
  'ioredis',
];

/**
 * The built-in tools' JSON Schemas (src/tools/tool-parameters-table.ts), made from the same sources
 * as the bundle and written into it (define), so a start reads them instead of converting ~25 zod
 * schemas on the path to its first model request (~5 ms of CPU, Node 22). The table's module is
 * bundled on its own first, beside the bundle (its tool modules find their assets from there).
 */
async function toolParametersTable() {
  const file = join(outdir, `.tool-parameters-table-${process.pid}.mjs`);
  await build({
    entryPoints: [join(src, 'tools', 'tool-parameters-table.ts')],
    outfile: file,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: EXTERNAL_PACKAGES,
    // ES modules bundled into one: the packages that are CommonJS get Node's require.
    banner: {
      js: "import { createRequire as requireFrom } from 'node:module'; const require = requireFrom(import.meta.url);",
    },
    plugins: [assetUrls],
    logLevel: 'warning',
  });
  try {
    return await (await import(pathToFileURL(file).href)).toolParametersTable();
  } finally {
    rmSync(file, { force: true });
  }
}

const bundled = await build({
  entryPoints: [join(src, 'cli', 'cli.ts')],
  outfile: bundleFile,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  charset: 'ascii',
  // No source map: `--debug` runs the unbundled modules, whose maps lead to the TypeScript sources.
  minifyWhitespace: true,
  minifySyntax: true,
  external: EXTERNAL_PACKAGES,
  define: {
    'import.meta.url': '__kimiBundleUrl',
    __kimiPublishedToolParameters: JSON.stringify(await toolParametersTable()),
    // src/version.ts: the version as text, not a read of package.json at every start.
    __kimiBundledVersion: JSON.stringify(
      JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version,
    ),
  },
  // The file is the function the launcher compiles (node:vm), as written: the launcher reads it as
  // one latin1 string, which Node keeps outside V8's heap (an external string), and V8 compiles
  // and keeps that string itself. A wrapper added at run time made V8 copy the 3 MB into its heap,
  // and the copies made on the way (without the hashbang, wrapped) lived until a full GC.
  banner: {
    js: `${BUNDLE_WRAPPER_START}var __kimiBundleUrl = require('node:url').pathToFileURL(__filename).href;`,
  },
  footer: { js: BUNDLE_WRAPPER_END },
  plugins: [assetUrls, lazyCommanderChildProcess, englishZodLocaleOnly, noZodFromJsonSchema],
  logLevel: 'warning',
  write: false,
});
// The bundle is not a script to run on its own: without the entry's hashbang, the wrapper opens it.
writeFileSync(bundleFile, bundled.outputFiles[0].text.replace(/^#!.*\n/, ''));

// The launcher reads the bundle as latin1 (src/bin/kimi-ts.cts): one non-ASCII byte garbles text.
// esbuild escapes non-ASCII everywhere but in a tagged template's text (its raw form must stay as
// written), so write such characters there as \u escapes (e.g. terminalText`\u203A`).
{
  const bundled = readFileSync(join(outdir, 'cli.bundle.cjs'));
  const at = bundled.findIndex((byte) => byte > 0x7f);
  if (at !== -1) {
    const context = bundled.subarray(Math.max(0, at - 60), at + 20).toString('utf8');
    throw new Error(`dist/bin/cli.bundle.cjs is not ASCII at byte ${at}: …${context}…`);
  }
}

// The bundle runs as a node:vm script, which has no `import()` (src/bin/kimi-ts.cts): a dynamic
// import of a built-in module left in it fails at run time ("A dynamic import callback was not
// specified"). Load such a module lazily with createRequire(import.meta.url) instead.
{
  const bundled = readFileSync(join(outdir, 'cli.bundle.cjs'), 'latin1');
  // esbuild writes the call with double quotes (a single-quoted one is text, e.g. an SDK's message).
  const found = /\bimport\("node:[^"]*"\)/.exec(bundled);
  if (found) throw new Error(`dist/bin/cli.bundle.cjs has a dynamic ${found[0]}, which node:vm cannot run`);
}
