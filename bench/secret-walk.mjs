// The sandbox's look for the workspace's secret files (src/policy/workspace-secret-walk.ts): a first
// walk (the session's first command waits for it) and a walk again with the folders kept (at each
// turn and after each command, off the commands' path), each as CPU time on a real tree.
// Usage: node bench/secret-walk.mjs [DIR] [ROUNDS]  (DIR defaults to this repository's root).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SecretFilesWalk } from '../dist/policy/workspace-secret-walk.js';
import { median } from './stats.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const dir = process.argv[2] ?? join(here, '..');
const rounds = Number(process.argv[3] ?? 30);

async function cpuOf(read) {
  const start = process.cpuUsage();
  const walk = await read();
  const used = process.cpuUsage(start);
  return { ms: (used.user + used.system) / 1000, found: walk.files.length };
}

const first = [];
const again = [];
let found = 0;
for (let i = 0; i < rounds; i++) {
  const walk = new SecretFilesWalk(dir);
  const one = await cpuOf(() => walk.read());
  first.push(one.ms);
  found = one.found;
  again.push((await cpuOf(() => walk.read())).ms);
}
const spread = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `median ${median(values).toFixed(2)} ms (min ${sorted[0].toFixed(2)}, max ${sorted.at(-1).toFixed(2)})`;
};
console.log(`${dir}: ${found} secret files, ${rounds} rounds`);
console.log(`  first walk CPU: ${spread(first)}`);
console.log(`  walk again (folders kept) CPU: ${spread(again)}`);
