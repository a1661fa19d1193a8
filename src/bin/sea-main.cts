// The entry of the single executable (`npm run build:sea`, scripts/build-sea.mjs). The executable
// carries the built CLI as assets: the launcher, the bundle, the prompts and tool descriptions, and
// the small packages the bundle loads by name (diff). The bundle finds its text assets as files beside
// it, so the first start of a build extracts them once into `<kimi-ts home>/cache/sea/<build id>/`
// (atomically, older builds' folders removed), and every start then runs the extracted launcher,
// which answers --version/--help and runs the bundle with its V8 code cache as the npm package does.
//
// The big optional packages the npm package also keeps outside its bundle (the Anthropic, Gemini and
// MCP SDKs, linkedom/readability/turndown) load from a `node_modules` folder beside the executable;
// when one is missing, the error says which package and how to install it there.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { getAsset } from 'node:sea';

/** Written by scripts/build-sea.mjs: the build's id and the files it carries (asset key = path). */
interface SeaManifest {
  id: string;
  files: string[];
  /** The packages left out, with the versions the build was made with. */
  optional: Record<string, string>;
}

/** Read by the launcher (src/bin/kimi-ts.cts): where the optional packages are looked up. */
const SEA_RUNTIME = Symbol.for('kimi-ts.sea');

const MARKER = '.complete';

function extract(manifest: SeaManifest, target: string): void {
  const temporary = `${target}.${process.pid}.tmp`;
  rmSync(temporary, { recursive: true, force: true });
  for (const file of manifest.files) {
    const path = join(temporary, file);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, new Uint8Array(getAsset(file)));
  }
  writeFileSync(join(temporary, MARKER), manifest.id);
  // A folder without the marker is no build's finished copy (someone took files out of it).
  if (existsSync(target)) rmSync(target, { recursive: true, force: true });
  try {
    renameSync(temporary, target);
  } catch (error) {
    // Another start of the same build got there first: its copy is as good as ours.
    rmSync(temporary, { recursive: true, force: true });
    if (!existsSync(join(target, MARKER))) throw error;
  }
  const parent = dirname(target);
  for (const name of readdirSync(parent)) {
    const other = join(parent, name);
    if (other !== target && !name.endsWith('.tmp')) rmSync(other, { recursive: true, force: true });
  }
}

const manifest = JSON.parse(getAsset('manifest.json', 'utf8')) as SeaManifest;
const home = process.env.KIMI_TS_HOME || join(homedir(), '.kimi-ts');
const extracted = join(home, 'cache', 'sea', manifest.id);
if (!existsSync(join(extracted, MARKER))) extract(manifest, extracted);

(globalThis as Record<symbol, unknown>)[SEA_RUNTIME] = {
  moduleDir: dirname(process.execPath),
  optional: manifest.optional,
};
const launcher = join(extracted, 'dist', 'bin', 'kimi-ts.cjs');
createRequire(launcher)(launcher);
