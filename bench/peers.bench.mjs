// kimi-ts against codex on the same scripted 3-step session (read a file, run a command, answer),
// fresh work dir each run, each agent against its own loopback server (kimi-ts: Chat Completions;
// codex: the Responses API, the only one it speaks). Checkpoints, the policy and the sandbox are as
// a user has them (defaults). Medians of 5 runs after a warm-up, the agents taking turns: wall time,
// CPU of the process tree (wait4's rusage, tree-times.mjs) and the peak resident memory of the whole tree.
//
// codex is found through CODEX_BIN, else on PATH. It installs from npm with its native binary:
//   npm i --prefix /tmp/codex -E @openai/codex@0.171.0 && CODEX_BIN=/tmp/codex/node_modules/.bin/codex
// (the npm command is a Node launcher that runs the binary, as a user's `codex` does).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { peakTreeRss } from './process-tree.mjs';
import { startResponsesServer } from './responses-server.mjs';
import { startScriptedServer } from './scripted-server.mjs';
import { median } from './stats.mjs';
import { spawnTimed } from './tree-times.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const launcher = join(here, '..', 'dist/bin/kimi-ts.cjs');
const RUNS = 5;
const ANSWER = 'The notes have one line about release 2.4.';

function findCodex() {
  if (process.env.CODEX_BIN) return process.env.CODEX_BIN;
  try {
    return execFileSync('sh', ['-c', 'command -v codex'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Runs one session under the wait4 reader; resolves with wall ms, CPU ms of the tree and peak tree RSS bytes. */
async function measured(command, args, { env, cwd, timesFile }) {
  const { child, read } = spawnTimed(command, args, { env, cwd, stdio: 'ignore' }, timesFile);
  const peak = peakTreeRss(child.pid, { skipRoot: true });
  const code = await new Promise((resolve) => child.on('close', resolve));
  const rss = await peak.stop();
  if (code !== 0) throw new Error(`${command} exited with ${code}`);
  const { wall, cpu } = read();
  return { wall, cpu, rss };
}

function freshWorkDir(home) {
  const work = mkdtempSync(join(home, 'work-'));
  writeFileSync(join(work, 'notes.txt'), 'release 2.4: faster start-up\n');
  return work;
}

export default async function peersBench() {
  const codex = findCodex();
  if (!codex) {
    return [
      { name: 'kimi-ts vs codex: codex not found (set CODEX_BIN; see bench/peers.bench.mjs)', unit: '' },
    ];
  }
  const chat = await startScriptedServer();
  const responses = await startResponsesServer();
  const home = mkdtempSync(join(tmpdir(), 'kimi-ts-bench-peers-'));
  const timesFile = join(home, 'times.txt');
  try {
    const config = join(home, 'config.toml');
    writeFileSync(
      config,
      `default_model = "m"\n[providers.p]\ntype = "openai_legacy"\nbase_url = "${chat.baseUrl}"\napi_key = "k"\n[models.m]\nprovider = "p"\nmodel = "m"\nmax_context_size = 100000\n[loop_control]\nmax_retries_per_step = 1\n`,
    );
    const kimiHome = join(home, 'kimi-home');
    const codexHome = join(home, 'codex-home');
    mkdirSync(codexHome);
    const agents = {
      kimi: (work) => {
        chat.push(
          { toolCalls: [{ id: 'r1', name: 'ReadFile', args: { path: 'notes.txt' } }] },
          { toolCalls: [{ id: 's1', name: 'Shell', args: { command: 'wc -l notes.txt' } }] },
          { text: ANSWER },
        );
        const args = [
          launcher,
          '--config-file',
          config,
          '-w',
          work,
          '--yolo',
          '--print',
          '-p',
          'read, count, answer',
        ];
        const env = { ...process.env, KIMI_TS_HOME: kimiHome, HOME: home };
        return measured(process.execPath, args, { env, cwd: work, timesFile });
      },
      codex: (work) => {
        responses.push({ command: 'cat notes.txt' }, { command: 'wc -l notes.txt' }, { text: ANSWER });
        const provider = `{name="bench",base_url="${responses.baseUrl}",env_key="BENCH_API_KEY",wire_api="responses"}`;
        const args = [
          'exec',
          '--skip-git-repo-check',
          '--dangerously-bypass-approvals-and-sandbox',
          ...['-c', 'model_provider=bench', '-c', `model_providers.bench=${provider}`, '-c', 'model=m'],
          'read, count, answer',
        ];
        const env = { ...process.env, CODEX_HOME: codexHome, HOME: home, BENCH_API_KEY: 'k' };
        return measured(codex, args, { env, cwd: work, timesFile });
      },
    };
    for (const run of Object.values(agents)) await run(freshWorkDir(home));
    const results = { kimi: [], codex: [] };
    for (let i = 0; i < RUNS; i++) {
      for (const name of i % 2 ? ['codex', 'kimi'] : ['kimi', 'codex'])
        results[name].push(await agents[name](freshWorkDir(home)));
      // A session that ended before its last turn measured less than the whole session.
      if (chat.pending() + responses.pending() > 0) throw new Error('a session did not take all its turns');
    }
    const of = (name, key) => median(results[name].map((r) => r[key]));
    const row = (label, key, limit, unit, scale = 1) => {
      const ratio = of('kimi', key) / of('codex', key);
      return {
        name: `kimi-ts vs codex, 3-step session: ${label}`,
        value: of('kimi', key) * scale,
        unit: `${unit} (codex ${(of('codex', key) * scale).toFixed(0)} ${unit})`,
        ratio,
        target: `≤ ${limit}× codex`,
        ok: ratio <= limit,
      };
    };
    return [
      row('wall', 'wall', 0.8, 'ms'),
      row('CPU of the process tree', 'cpu', 0.8, 'ms'),
      row('peak RSS of the process tree', 'rss', 0.5, 'MiB', 1 / 2 ** 20),
    ];
  } finally {
    await chat.close();
    await responses.close();
    rmSync(home, { recursive: true, force: true });
  }
}
