// Builds the single executable (`npm run build:sea`, after `npm run build`): a copy of a Node binary
// with the CLI injected as a single-executable-application blob (Node's `--experimental-sea-config`
// and `postject`). Its entry is dist/bin/sea-main.cjs (src/bin/sea-main.cts); its assets are the
// launcher, the bundle, the recorded --version/--help answers, every text asset of dist/ (prompts,
// tool descriptions, agent specs), a package.json with the version, and `diff` bundled into one
// file (the bundle loads it by name). The optional SDKs stay out, as in the npm package.
//
//   node scripts/build-sea.mjs [--node <binary>] [--out <file>]
//
// --node: the Node binary to build from (default: the one running this script); the blob is made
// by that same binary, as its format belongs to its version. --out: default dist/sea/kimi-ts.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import postject from 'postject';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const { values } = parseArgs({ options: { node: { type: 'string' }, out: { type: 'string' } } });
const node = resolve(values.node ?? process.execPath);
const out = resolve(values.out ?? join(dist, 'sea', 'kimi-ts'));
const stage = `${out}.stage`;
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
/** The packages the bundle leaves out (scripts/bundle.mjs): loaded from beside the executable. */
const OPTIONAL = [
  '@anthropic-ai/sdk',
  '@google/genai',
  '@modelcontextprotocol/sdk',
  'linkedom',
  '@mozilla/readability',
  'turndown',
  // The fleet's queue (kimi-ts submit / worker / fleet).
  'bullmq',
  'ioredis',
];
const TEXT_ASSET = /\.(md|ya?ml|txt|ya?ml\.json)$/;

/** Asset key (a path in the extracted layout, `/`-separated) → file on disk. */
const files = new Map();
const add = (key, file) => files.set(key.split(sep).join('/'), file);

function walkTextAssets(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walkTextAssets(path);
    else if (TEXT_ASSET.test(entry.name)) add(relative(root, path), path);
  }
}

rmSync(stage, { recursive: true, force: true });
mkdirSync(join(stage, 'node_modules', 'diff'), { recursive: true });
for (const name of ['kimi-ts.cjs', 'cli.bundle.cjs', 'quick-answers.json']) {
  add(`dist/bin/${name}`, join(dist, 'bin', name));
}
for (const entry of readdirSync(dist, { withFileTypes: true })) {
  if (entry.isDirectory() && entry.name !== 'sea' && entry.name !== 'bin')
    walkTextAssets(join(dist, entry.name));
}
writeFileSync(
  join(stage, 'package.json'),
  JSON.stringify({ name: packageJson.name, version: packageJson.version }),
);
add('package.json', join(stage, 'package.json'));

const diffVersion = JSON.parse(readFileSync(join(root, 'node_modules/diff/package.json'), 'utf8')).version;
await build({
  entryPoints: [join(root, 'node_modules/diff/libcjs/index.js')],
  outfile: join(stage, 'node_modules/diff/index.js'),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minifyWhitespace: true,
  logLevel: 'warning',
});
writeFileSync(
  join(stage, 'node_modules/diff/package.json'),
  JSON.stringify({ name: 'diff', version: diffVersion, main: 'index.js' }),
);
add('node_modules/diff/index.js', join(stage, 'node_modules/diff/index.js'));
add('node_modules/diff/package.json', join(stage, 'node_modules/diff/package.json'));
// The shell parser the policy reads commands with (its CommonJS build, its WebAssembly, the bash
// grammar's): carried, so the executable's policy reads a loop or a `$((…))` as the npm package's
// does. The launcher loads it from the extracted copy, never from beside the executable.
for (const file of ['package.json', 'web-tree-sitter.cjs', 'web-tree-sitter.wasm'])
  add(`node_modules/web-tree-sitter/${file}`, join(root, 'node_modules/web-tree-sitter', file));
writeFileSync(
  join(stage, 'node_modules/tree-sitter-bash.package.json'),
  JSON.stringify({ name: 'tree-sitter-bash', version: packageJson.dependencies['tree-sitter-bash'] }),
);
add('node_modules/tree-sitter-bash/package.json', join(stage, 'node_modules/tree-sitter-bash.package.json'));
add(
  'node_modules/tree-sitter-bash/tree-sitter-bash.wasm',
  join(root, 'node_modules/tree-sitter-bash/tree-sitter-bash.wasm'),
);

const keys = [...files.keys()].sort();
const hash = createHash('sha256');
for (const key of keys)
  hash
    .update(`${key}\0`)
    .update(readFileSync(files.get(key)))
    .update('\0');
const optional = Object.fromEntries(OPTIONAL.map((name) => [name, packageJson.dependencies[name]]));
const manifest = { id: `${packageJson.version}-${hash.digest('hex').slice(0, 16)}`, files: keys, optional };
writeFileSync(join(stage, 'manifest.json'), JSON.stringify(manifest));

const blob = join(stage, 'sea-prep.blob');
const config = join(stage, 'sea-config.json');
writeFileSync(
  config,
  JSON.stringify({
    main: join(dist, 'bin', 'sea-main.cjs'),
    output: blob,
    disableExperimentalSEAWarning: true,
    useCodeCache: true,
    assets: { 'manifest.json': join(stage, 'manifest.json'), ...Object.fromEntries(files) },
  }),
);
execFileSync(node, ['--experimental-sea-config', config], { stdio: ['ignore', 'ignore', 'inherit'] });

mkdirSync(dirname(out), { recursive: true });
rmSync(out, { force: true });
copyFileSync(node, out);
chmodSync(out, 0o755);
await postject.inject(out, 'NODE_SEA_BLOB', readFileSync(blob), {
  sentinelFuse: 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2',
});
rmSync(stage, { recursive: true, force: true });
process.stdout.write(
  `${relative(process.cwd(), out) || out}: Node ${execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()}, build ${manifest.id}\n`,
);
