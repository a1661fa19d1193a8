// The policy's decision per tool call, with 20 permission rules loaded: file reads and writes
// (real paths resolved beforehand, as the tools do), parsed Shell commands (plain; with wrappers and
// `bash -c`; with assignments and expansions; a command text not seen before: plain, quoted with
// redirections, or with an expansion), a fetch. Target: ≤ 50 µs.
import { performance } from 'node:perf_hooks';
import * as policyModule from '../dist/policy/index.js';
import { policyFixture, shellRequest } from './policy-fixture.mjs';
import { RULES } from './policy-rules.mjs';

const CALLS = 20_000;
const TARGET_US = 50;

export default async function run() {
  const { work, policy, requests, dispose } = await policyFixture(policyModule, 'kimi-ts-bench-policy-');
  try {
    for (const request of Object.values(requests)) await policy.decide(request); // warm-up (and parser load)
    // The bare loop: the same number of awaited calls, each testing 20 compiled regexes against a
    // path, so the ratio says what the policy costs beyond its irreducible matching work.
    const regexes = RULES.map(
      ([, pattern]) => new RegExp(`^${pattern.replace(/[.*+?^${}()|[\]\\]/g, '.')}$`),
    );
    const bare = async (text) => regexes.some((r) => r.test(text));
    const bareStart = performance.now();
    for (let i = 0; i < CALLS; i++) await bare(`/work/src/index-${i & 7}.ts`);
    const bareUs = ((performance.now() - bareStart) * 1000) / CALLS;
    const rows = [];
    for (const [name, request] of Object.entries(requests)) {
      for (let i = 0; i < 500; i++) await policy.decide(request);
      const start = performance.now();
      for (let i = 0; i < CALLS; i++) await policy.decide(request);
      const us = ((performance.now() - start) * 1000) / CALLS;
      rows.push({
        name: `decision per ${name} call (20 rules)`,
        value: us,
        unit: 'µs',
        ratio: us / bareUs,
        target: `≤ ${TARGET_US} µs`,
        ok: us <= TARGET_US,
      });
    }
    // A command text never decided before: the parse (no cached parse to reuse) and its words'
    // look-ups. A plain line (words, quotes, operators, output redirections, a variable or a plain
    // command substitution inside "…"), a one-line `for`, `while` or `until` loop with plain parts
    // (src/policy/plain-loop.ts) and heredocs with a quoted delimiter (src/policy/plain-heredoc.ts)
    // are split without tree-sitter; anything else (here a `case`) goes to tree-sitter's WebAssembly
    // parser.
    const FIRST_CALLS = 2_000;
    const firstTexts = {
      'a command text not seen before': (i) => `git log -n ${i} --oneline && ls -la src-${i} | wc -l`,
      'a command text not seen before, with quotes and redirections': (i) =>
        `git commit -m "fix ${i}" && npm test -- 'src-${i}' 2>&1 > "out-${i}.txt"`,
      'a command text not seen before, with a variable in quotes': (i) =>
        `git commit -m "fix $N" && ls -la 'src-${i}' > "out-${i}.txt"`,
      'a command text not seen before, with a command substitution in quotes': (i) =>
        `git commit -m "fix $(date)" && ls -la 'src-${i}' > "out-${i}.txt"`,
      'a command text not seen before, a for loop': (i) =>
        `for f in src-${i}/*.ts; do wc -l "$f"; done > "out-${i}.txt"`,
      'a command text not seen before, a while loop': (i) =>
        `ls src-${i} | while read -r f; do wc -l "$f"; done > "out-${i}.txt"`,
      'a command text not seen before, a heredoc': (i) =>
        `git commit -F - <<'EOF'\nfix ${i}\n\nin src-${i}\nEOF`,
      'a command text not seen before, a case (tree-sitter)': (i) =>
        `case "$mode" in fast) npm test -- src-${i};; *) npm run build;; esac`,
    };
    for (const [name, text] of Object.entries(firstTexts)) {
      const firstStart = performance.now();
      for (let i = 0; i < FIRST_CALLS; i++) await policy.decide(shellRequest(work, text(i)));
      const firstUs = ((performance.now() - firstStart) * 1000) / FIRST_CALLS;
      rows.push({
        name: `decision per Shell call, ${name} (20 rules)`,
        value: firstUs,
        unit: 'µs',
        ratio: firstUs / bareUs,
        target: `≤ ${TARGET_US} µs`,
        ok: firstUs <= TARGET_US,
      });
    }
    return rows;
  } finally {
    await dispose();
  }
}
