// Copies non-TypeScript assets (tool descriptions, prompts, agent specs) from src/ to dist/,
// keeping their relative paths, so the built package finds them beside the compiled modules.
// Agent specs also get a JSON twin (`agent.yaml.json`) so starting the CLI needs no YAML parser.
import { cpSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const dist = join(root, 'dist');
const assetSuffixes = ['.md', '.yaml', '.yml', '.txt'];
const skippedFolders = new Set(['test-support', 'fixtures']);

function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (!skippedFolders.has(name)) walk(path);
    } else if (assetSuffixes.some((suffix) => name.endsWith(suffix))) {
      const target = join(dist, relative(src, path));
      cpSync(path, target);
      if (name.endsWith('.yaml') || name.endsWith('.yml')) {
        writeFileSync(`${target}.json`, JSON.stringify(parse(readFileSync(path, 'utf8'))));
      }
    }
  }
}
walk(src);
