// The sandbox's look for the workspace's secret files (src/policy/workspace-secret-walk.ts), made
// at each turn and after each command, off the commands' path: its CPU time on a real tree.
// Usage: node bench/secret-walk.mjs [DIR] [ROUNDS]  (DIR defaults to this repository's root).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { walkSecretFiles } from '../dist/policy/workspace-secret-walk.js';
import { median } from './stats.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const dir = process.argv[2] ?? join(here, '..');
const rounds = Number(process.argv[3] ?? 30);
const cpu = [];
const wall = [];
let found = 0;
for (let i = 0; i < rounds; i++) {
  const startCpu = process.cpuUsage();
  const startWall = performance.now();
  const walk = await walkSecretFiles(dir);
  const used = process.cpuUsage(startCpu);
  wall.push(performance.now() - startWall);
  cpu.push((used.user + used.system) / 1000);
  found = walk.files.length;
}
const sorted = [...cpu].sort((a, b) => a - b);
console.log(
  `${dir}: ${found} secret files; CPU median ${median(cpu).toFixed(2)} ms (min ${sorted[0].toFixed(2)}, max ${sorted.at(-1).toFixed(2)}), wall median ${median(wall).toFixed(2)} ms over ${rounds} rounds`,
);
