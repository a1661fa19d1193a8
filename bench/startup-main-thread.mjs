// The first model request of a print run, split as the main thread spent it: on a CPU, waiting for
// one (a loaded machine), and asleep on I/O or timers; with the CPU of all threads. Builds given as
// arguments (each a directory with dist/) take turns in each round, under the Node running this:
//   node bench/startup-main-thread.mjs [rounds] [build-dir ...]      (default: 15, this worktree)
// Linux only (the main thread's times come from /proc/self/task/<pid>/schedstat).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startScriptedServer } from './scripted-server.mjs';
import { median } from './stats.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const rounds = Number(process.argv[2] ?? 15);
const builds = process.argv.slice(3).map((dir) => resolve(dir));
if (builds.length === 0) builds.push(join(here, '..'));

const server = await startScriptedServer();
const home = mkdtempSync(join(tmpdir(), 'kimi-ts-bench-main-thread-'));
const work = join(home, 'work');
mkdirSync(work);
const config = join(home, 'config.toml');
writeFileSync(
  config,
  `default_model = "m"\n[providers.p]\ntype = "openai_legacy"\nbase_url = "${server.baseUrl}"\napi_key = "k"\n[models.m]\nprovider = "p"\nmodel = "m"\nmax_context_size = 100000\n[loop_control]\nmax_retries_per_step = 1\n`,
);

function printRun(build, index, prompt, marked) {
  const args = [
    ...(marked ? ['-r', join(here, 'startup-main-thread-marks.cjs')] : []),
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
const seen = builds.map(() => []);
for (let round = 0; round < rounds; round++) {
  for (const [index, build] of builds.entries()) {
    const found = /^first-connect ([\d.]+) ([\d.]+) ([\d.NaN]+) ([\d.NaN]+)$/m.exec(
      await printRun(build, index, 'hi', true),
    );
    if (found) seen[index].push(found.slice(1).map(Number));
  }
}
await server.close();
rmSync(home, { recursive: true, force: true });

console.log(
  `${process.version}, medians of ${rounds} rounds, [lower, upper quartile] (ms until the first model request):`,
);
/** The value at fraction `at` of the sorted values (0.25: lower quartile). */
const quantile = (values, at) => [...values].sort((x, y) => x - y)[Math.floor((values.length - 1) * at)];
const spread = (values) =>
  `${median(values).toFixed(1)} [${quantile(values, 0.25).toFixed(1)}, ${quantile(values, 0.75).toFixed(1)}]`;
for (const [index, build] of builds.entries()) {
  const column = (at) => seen[index].map((row) => row[at]);
  const asleep = seen[index].map(([wall, , onCpu, waiting]) => wall - onCpu - waiting);
  console.log(
    `  ${build}: wall ${spread(column(0))}, CPU (all threads) ${spread(column(1))}, main thread on CPU ${spread(column(2))}, waiting for a CPU ${spread(column(3))}, asleep ${spread(asleep)}`,
  );
}
