// Where the time to the first model request goes, in CPU as well as wall time (a loaded machine
// inflates wall time; CPU much less): Node's boot, reading and compiling the bundle (code cache on),
// and the bundle's own work until the first socket connects. Builds given as arguments (each a
// directory with dist/) take turns, so they can be compared in one run:
//   node bench/startup-phases.mjs [rounds] [build-dir ...]      (default: 7, this worktree)
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startScriptedServer } from './scripted-server.mjs';
import { median } from './stats.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const rounds = Number(process.argv[2] ?? 7);
const builds = process.argv.slice(3).map((dir) => resolve(dir));
if (builds.length === 0) builds.push(join(here, '..'));

const server = await startScriptedServer();
const home = mkdtempSync(join(tmpdir(), 'kimi-ts-bench-phases-'));
const work = join(home, 'work');
mkdirSync(work);
const config = join(home, 'config.toml');
writeFileSync(
  config,
  `default_model = "m"\n[providers.p]\ntype = "openai_legacy"\nbase_url = "${server.baseUrl}"\napi_key = "k"\n[models.m]\nprovider = "p"\nmodel = "m"\nmax_context_size = 100000\n[loop_control]\nmax_retries_per_step = 1\n`,
);

function printRun(build, index, prompt, marked) {
  const args = [
    ...(marked ? ['-r', join(here, 'startup-phase-marks.cjs')] : []),
    join(build, 'dist/bin/kimi-ts.cjs'),
    ...['--config-file', config, '-w', work, '--print', '-p', prompt],
  ];
  // Each build its own home, so each finds its own code cache.
  const env = { ...process.env, HOME: home, KIMI_TS_HOME: join(home, `home-${index}`) };
  return new Promise((done) => {
    let stderr = '';
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', () => done(stderr));
  });
}

// A full turn first: the code cache is written as a user's second run finds it.
for (const [index, build] of builds.entries()) {
  server.push({ text: 'warm' });
  await printRun(build, index, 'warm up', false);
}
const seen = builds.map(() => ({}));
for (let round = 0; round < rounds; round++) {
  for (const [index, build] of builds.entries()) {
    const stderr = await printRun(build, index, 'hi', true);
    for (const [, label, wall, cpu] of stderr.matchAll(/^phase (\S+) ([\d.]+) ([\d.]+)$/gm)) {
      seen[index][label] ??= [];
      seen[index][label].push([Number(wall), Number(cpu)]);
    }
  }
}
await server.close();
rmSync(home, { recursive: true, force: true });

for (const [index, build] of builds.entries()) {
  const at = (label, which) => median((seen[index][label] ?? []).map((pair) => pair[which]));
  const span = (from, to) =>
    `${(at(to, 0) - at(from, 0)).toFixed(0)} ms wall, ${(at(to, 1) - at(from, 1)).toFixed(0)} ms CPU`;
  console.log(`${build} (medians of ${rounds}):`);
  console.log(
    `  Node boot            ${at('node-booted', 0).toFixed(0)} ms wall, ${at('node-booted', 1).toFixed(0)} ms CPU`,
  );
  console.log(`  launcher + read      ${span('node-booted', 'compile-start')}`);
  console.log(`  compile (vm.Script)  ${span('compile-start', 'compile-end')}`);
  console.log(`  bundle → request     ${span('compile-end', 'first-connect')}`);
  console.log(
    `  total to request     ${at('first-connect', 0).toFixed(0)} ms wall, ${at('first-connect', 1).toFixed(0)} ms CPU`,
  );
}
