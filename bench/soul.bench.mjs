// Soul benchmarks: per-step framework overhead, memory over a long session, resume time, and time
// from process start to the first model request in print mode.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSdkAlone, writeFetchAlone } from './floors.mjs';
import { median } from './stats.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

function runSession(steps, history, dir) {
  const out = execFileSync(
    process.execPath,
    ['--expose-gc', join(here, 'soul-run.mjs'), String(steps), String(history), dir],
    {
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    },
  );
  return JSON.parse(out.trim().split('\n').at(-1));
}

function resumeMs(dir) {
  const script = `
    import { Context } from ${JSON.stringify(join(root, 'dist/soul/context/context.js'))};
    const t = performance.now();
    const c = await Context.restore(${JSON.stringify(join(dir, 'context.jsonl'))});
    const ms = performance.now() - t;
    console.log(JSON.stringify({ ms, messages: c.history.length }));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  return JSON.parse(out.trim());
}

/**
 * Start-up times, in milliseconds (median of `rounds`): bare `node -e 0` from spawn to exit, and for
 * each setup, from spawning `node <args>` to its first request reaching a loopback server (which
 * answers 500). The commands take turns within each round, so a machine that slows down for a while
 * slows all of them alike. `setup(baseUrl, dir)` returns the arguments and extra environment.
 */
async function startupTimes(setups, rounds = 11) {
  const dir = mkdtempSync(join(tmpdir(), 'kimi-ts-bench-first-'));
  let arrived;
  const server = createServer((_req, res) => {
    arrived?.(performance.now());
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end('{"error":{"message":"bench"}}');
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const baseUrl = `http://127.0.0.1:${server.address().port}/v1`;
  const runs = [];
  for (const [index, setup] of setups.entries()) {
    const runDir = join(dir, String(index));
    mkdirSync(runDir);
    runs.push(await setup(baseUrl, runDir));
  }
  const bare = [];
  const first = runs.map(() => []);
  for (let round = 0; round < rounds; round++) {
    const start = performance.now();
    await new Promise((r) => spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' }).on('close', r));
    bare.push(performance.now() - start);
    for (const [index, { args, env }] of runs.entries()) {
      const got = new Promise((r) => {
        arrived = r;
      });
      const started = performance.now();
      const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: 'ignore' });
      first[index].push((await got) - started);
      await new Promise((r) => child.on('close', r));
    }
  }
  server.close();
  rmSync(dir, { recursive: true, force: true });
  return { bare: median(bare), first: first.map(median) };
}

/** kimi-ts in print mode with a config file naming the loopback server. */
function printModeRun(baseUrl, home) {
  const config = join(home, 'config.toml');
  writeFileSync(
    config,
    `default_model = "m"\n[providers.p]\ntype = "openai_legacy"\nbase_url = "${baseUrl}"\napi_key = "k"\n[models.m]\nprovider = "p"\nmodel = "m"\nmax_context_size = 100000\n[loop_control]\nmax_retries_per_step = 1\n`,
  );
  return {
    args: [join(root, 'dist/bin/kimi-ts.cjs'), '--config-file', config, '--print', '-p', 'hi'],
    env: { KIMI_TS_HOME: home },
  };
}

/**
 * The floor under the print-mode number: the official openai SDK alone, bundled the same way, making
 * one streaming request as soon as it can (no config, session, tools or agent loop).
 */
async function sdkAloneRun(baseUrl, dir) {
  return { args: [await buildSdkAlone(dir)], env: { BENCH_BASE_URL: baseUrl } };
}

/**
 * The floor under that: Node's own fetch, one POST to the server, in a process doing nothing else. On
 * Node 20 the first use of `Headers` or `fetch` loads the bundled undici and the ~90 built-in modules
 * it needs, and the first request runs its whole HTTP stack cold; every provider SDK pays this.
 */
function fetchAloneRun(baseUrl, dir) {
  return { args: [writeFetchAlone(dir)], env: { BENCH_BASE_URL: baseUrl } };
}

export default async function soulBench() {
  const rows = [];
  const stepDir = mkdtempSync(join(tmpdir(), 'kimi-ts-bench-'));
  const overhead = runSession(1000, 1000, stepDir);
  rmSync(stepDir, { recursive: true, force: true });
  rows.push({
    name: 'framework overhead per step, 1,000 messages of history (scripted model, no-op tool)',
    value: overhead.perStepMs,
    unit: 'ms/step',
    target: '≤ 1 ms',
    ok: overhead.perStepMs <= 1,
  });

  // RSS is noisy from run to run (heap sizing): take the median of three sessions.
  const runs = [];
  let longDir = '';
  for (let i = 0; i < 3; i++) {
    if (longDir) rmSync(longDir, { recursive: true, force: true });
    longDir = mkdtempSync(join(tmpdir(), 'kimi-ts-bench-'));
    runs.push(runSession(10_000, 0, longDir));
  }
  const growthOf = (run) => (run.rssAt[10000] - run.rssAt[1000]) / run.rssAt[1000];
  runs.sort((a, b) => growthOf(a) - growthOf(b));
  const long = runs[1];
  const growth = growthOf(long);
  rows.push({
    name: 'RSS growth from step 1,000 to 10,000 (scripted session, median of 3)',
    value: growth * 100,
    unit: `% (${(long.rssAt[1000] / 2 ** 20).toFixed(0)} → ${(long.rssAt[10000] / 2 ** 20).toFixed(0)} MiB)`,
    target: '≤ 20 %',
    ok: growth <= 0.2,
  });
  const heapGrowth = (long.heapAt[10000] - long.heapAt[1000]) / 9000;
  rows.push({
    name: 'JS heap kept per step from step 1,000 to 10,000 (the history itself)',
    value: heapGrowth,
    unit: `bytes/step (${(long.heapAt[1000] / 2 ** 20).toFixed(1)} → ${(long.heapAt[10000] / 2 ** 20).toFixed(1)} MiB)`,
  });
  const resume = resumeMs(longDir);
  rmSync(longDir, { recursive: true, force: true });
  rows.push({
    name: `resume a 10,000-step session (${resume.messages} messages)`,
    value: resume.ms,
    unit: 'ms',
    target: '≤ 1000 ms',
    ok: resume.ms <= 1000,
  });

  const {
    bare,
    first: [first, sdkAlone, fetchAlone],
  } = await startupTimes([printModeRun, sdkAloneRun, fetchAloneRun]);
  rows.push({
    name: 'print mode: process start to first model request',
    value: first,
    unit: `ms (bare node ${bare.toFixed(0)} ms)`,
    ratio: first / bare,
    target: '≤ 2× bare node',
    ok: first / bare <= 2,
  });
  rows.push({
    name: 'the same for the openai SDK alone (bundled, one request, nothing else)',
    value: sdkAlone,
    unit: `ms (bare node ${bare.toFixed(0)} ms)`,
    ratio: sdkAlone / bare,
  });
  rows.push({
    name: "the same for Node's fetch alone (one POST, nothing else)",
    value: fetchAlone,
    unit: `ms (bare node ${bare.toFixed(0)} ms)`,
    ratio: fetchAlone / bare,
  });
  return rows;
}
