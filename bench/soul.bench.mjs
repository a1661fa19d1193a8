// Soul benchmarks: per-step framework overhead, memory over a long session, resume time, and time
// from process start to the first model request in print mode.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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

/** Milliseconds from spawning the CLI to its first request reaching a loopback server. */
async function firstRequestMs() {
  const home = mkdtempSync(join(tmpdir(), 'kimi-ts-bench-home-'));
  let arrived;
  const server = createServer((_req, res) => {
    arrived?.(performance.now());
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end('{"error":{"message":"bench"}}');
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const config = join(home, 'config.toml');
  writeFileSync(
    config,
    `default_model = "m"\n[providers.p]\ntype = "openai_legacy"\nbase_url = "http://127.0.0.1:${server.address().port}/v1"\napi_key = "k"\n[models.m]\nprovider = "p"\nmodel = "m"\nmax_context_size = 100000\n[loop_control]\nmax_retries_per_step = 1\n`,
  );
  const times = [];
  for (let i = 0; i < 7; i++) {
    const got = new Promise((r) => {
      arrived = r;
    });
    const start = performance.now();
    const child = spawn(
      process.execPath,
      [join(root, 'dist/bin/kimi-ts.cjs'), '--config-file', config, '--print', '-p', 'hi'],
      {
        env: { ...process.env, KIMI_TS_HOME: home },
        stdio: 'ignore',
      },
    );
    const at = await got;
    times.push(at - start);
    await new Promise((r) => child.on('close', r));
  }
  server.close();
  rmSync(home, { recursive: true, force: true });
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

async function bareNodeMs() {
  const times = [];
  for (let i = 0; i < 7; i++) {
    const start = performance.now();
    await new Promise((r) => spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' }).on('close', r));
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
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

  const bare = await bareNodeMs();
  const first = await firstRequestMs();
  rows.push({
    name: 'print mode: process start to first model request',
    value: first,
    unit: `ms (bare node ${bare.toFixed(0)} ms)`,
    ratio: first / bare,
    target: '≤ 2× bare node',
    ok: first / bare <= 2,
  });
  return rows;
}
