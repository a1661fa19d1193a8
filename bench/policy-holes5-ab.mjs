// A/B of what holes5 changed in the policy's per-call path: CPU per Shell decision for fresh
// command texts of the shapes it reads (package runners, make with variables, folder-changing
// wrappers) and for everyday ones it must not slow (ls, git status, npm test), per shape. For two
// built checkouts A and B, alternated (A B, B A, …), a fresh process each: the bench's 20 rules, a
// warm-up, then CALLS new texts per shape, timed by the process's CPU (user + system).
// Usage: node bench/policy-holes5-ab.mjs DIR_A DIR_B [rounds=8] [node binary]
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { policyFixture, shellRequest } from './policy-fixture.mjs';
import { median } from './stats.mjs';

const CALLS = 400;

/** Each shape's text for call i (new each time: no parse cache answers). */
const SHAPES = {
  everyday: (i) => `ls -la src-${i} && git status --short && npm test -- t${i}`,
  npx: (i) => `npx --yes eslint src-${i} && npm --prefix web exec -- tsc -p p${i}`,
  make: (i) => `make -C build-${i} CC=clang CFLAGS=-O2 all`,
  wrappers: (i) => `timeout 60 env -C sub-${i} nice git -C repo status`,
  // The same folders without the outer wrappers: what both checkouts judge from the new folders.
  envC: (i) => `env -C sub-${i} git -C repo status`,
  // policy.bench.mjs's wrappers row, the same text each call (its parse is kept).
  sudoSame: () => "sudo -u root env A=1 bash -c 'git status && rm -fr build' | xargs -0 echo",
};

async function run(dir) {
  const policyModule = await import(pathToFileURL(join(dir, 'dist/policy/index.js')).href);
  const { work, policy, dispose } = await policyFixture(policyModule, 'kimi-ts-holes5-ab-');
  try {
    const out = {};
    for (const [name, text] of Object.entries(SHAPES)) {
      for (let i = 0; i < 50; i++) await policy.decide(shellRequest(work, text(`w${i}`)));
      const cpu = process.cpuUsage();
      for (let i = 0; i < CALLS; i++) await policy.decide(shellRequest(work, text(i)));
      const used = process.cpuUsage(cpu);
      out[name] = (used.user + used.system) / CALLS;
    }
    console.log(JSON.stringify(out));
  } finally {
    await dispose();
  }
}

const [first, ...rest] = process.argv.slice(2);
if (first === '--run') await run(rest[0]);
else {
  const [dirB, roundsArg, nodeArg] = rest;
  if (!first || !dirB) throw new Error('usage: node bench/policy-holes5-ab.mjs DIR_A DIR_B [rounds] [node]');
  const dirs = [first, dirB];
  const rounds = Number(roundsArg ?? 8);
  const node = nodeArg ?? process.execPath;
  const self = fileURLToPath(import.meta.url);
  const runs = new Map(dirs.map((dir) => [dir, Object.fromEntries(Object.keys(SHAPES).map((k) => [k, []]))]));
  for (let round = 0; round < rounds; round++) {
    for (const dir of round % 2 === 0 ? dirs : [...dirs].reverse()) {
      const out = JSON.parse(execFileSync(node, [self, '--run', dir], { encoding: 'utf8' }));
      for (const [name, value] of Object.entries(out)) runs.get(dir)[name].push(value);
    }
  }
  const at = (values, q) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) * q)];
  const fmt = (n) => n.toFixed(1);
  for (const name of Object.keys(SHAPES)) {
    for (const [dir, found] of runs) {
      const v = found[name];
      console.log(
        `${name.padEnd(9)} ${dir}: CPU median ${fmt(median(v))} µs, quartiles ${fmt(at(v, 0.25))}–${fmt(at(v, 0.75))}, range ${fmt(Math.min(...v))}–${fmt(Math.max(...v))} (${v.length} runs)`,
      );
    }
  }
}
