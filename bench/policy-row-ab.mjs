// A/B of one row of the policy bench alone: "decision per Shell call, a command text not seen
// before, a case (tree-sitter)". For two built checkouts A and B, alternated (A B, B A, …), a fresh
// process each: the bench's rules, folder and warm-up decisions, then the row's 2,000 new `case`
// texts, timed by wall and by the process's CPU (user + system, every thread: V8's background
// compiles too). Prints medians, quartiles and extremes of µs per decision. The full bench runs the
// row after every other row (their warm-up and their V8 feedback); this measures it from cold.
// Usage: node bench/policy-row-ab.mjs DIR_A DIR_B [rounds=10] [node binary]
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { policyFixture, shellRequest } from './policy-fixture.mjs';
import { median } from './stats.mjs';

const CALLS = 2_000;

/** In the child: the row once, against the checkout `dir`; prints { wall, cpu } in µs per decision. */
async function row(dir) {
  const policyModule = await import(pathToFileURL(join(dir, 'dist/policy/index.js')).href);
  const { work, policy, requests, dispose } = await policyFixture(policyModule, 'kimi-ts-policy-row-');
  try {
    // The bench's warm-up: one decision of each of its requests (the parser loads here).
    for (const request of Object.values(requests)) await policy.decide(request);
    const text = (i) => `case "$mode" in fast) npm test -- src-${i};; *) npm run build;; esac`;
    const cpu = process.cpuUsage();
    const start = performance.now();
    for (let i = 0; i < CALLS; i++) await policy.decide(shellRequest(work, text(i)));
    const wall = ((performance.now() - start) * 1000) / CALLS;
    const used = process.cpuUsage(cpu);
    console.log(JSON.stringify({ wall, cpu: (used.user + used.system) / CALLS }));
  } finally {
    await dispose();
  }
}

const [first, ...rest] = process.argv.slice(2);
if (first === '--row') await row(rest[0]);
else {
  const [dirB, roundsArg, nodeArg] = rest;
  if (!first || !dirB) throw new Error('usage: node bench/policy-row-ab.mjs DIR_A DIR_B [rounds] [node]');
  const dirs = [first, dirB];
  const rounds = Number(roundsArg ?? 10);
  const node = nodeArg ?? process.execPath;
  const self = fileURLToPath(import.meta.url);
  const runs = new Map(dirs.map((dir) => [dir, { wall: [], cpu: [] }]));
  for (let round = 0; round < rounds; round++) {
    for (const dir of round % 2 === 0 ? dirs : [...dirs].reverse()) {
      const out = JSON.parse(execFileSync(node, [self, '--row', dir], { encoding: 'utf8' }));
      runs.get(dir).wall.push(out.wall);
      runs.get(dir).cpu.push(out.cpu);
    }
  }
  const at = (values, q) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) * q)];
  const fmt = (n) => n.toFixed(1);
  for (const [dir, found] of runs) {
    for (const kind of ['cpu', 'wall']) {
      const v = found[kind];
      console.log(
        `${dir} ${kind}: median ${fmt(median(v))} µs, quartiles ${fmt(at(v, 0.25))}–${fmt(at(v, 0.75))}, range ${fmt(Math.min(...v))}–${fmt(Math.max(...v))} (${v.length} runs)`,
      );
    }
  }
}
