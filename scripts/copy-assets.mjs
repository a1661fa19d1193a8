// Copies non-TypeScript assets (tool descriptions, prompts, agent specs) from src/ to dist/,
// keeping their relative paths, so the built package finds them beside the compiled modules.
import { cpSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const dist = join(root, 'dist');
const assetSuffixes = ['.md', '.yaml', '.yml', '.txt'];

function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'test-support' && name !== 'fixtures') walk(path);
    } else if (assetSuffixes.some((suffix) => name.endsWith(suffix))) {
      cpSync(path, join(dist, relative(src, path)));
    }
  }
}
walk(src);
