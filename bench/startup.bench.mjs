// Start-up benchmarks, for each Node line at hand (this one, and the CI's Node 22 and 24 when
// `.ci/run` has installed them in .ci/node22 and .ci/node24, or the binaries in BENCH_NODES, colon
// separated): `--version` and `--help`, the interactive prompt ready, the first model request in
// print mode, each against bare `node -e 0` of the same binary; and a scripted 3-step session (read
// a file, run a command, answer): wall time, CPU and peak RSS of the whole process tree.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSdkAlone, writeFetchAlone } from './floors.mjs';
import { nodeLines } from './node-lines.mjs';
import { peakTreeRss } from './process-tree.mjs';
import { startScriptedServer } from './scripted-server.mjs';
import { median } from './stats.mjs';
import { spawnTimed } from './tree-times.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const launcher = join(root, 'dist/bin/kimi-ts.cjs');

function writeConfig(dir, baseUrl) {
  const file = join(dir, 'config.toml');
  writeFileSync(
    file,
    `default_model = "m"\n[providers.p]\ntype = "openai_legacy"\nbase_url = "${baseUrl}"\napi_key = "k"\n[models.m]\nprovider = "p"\nmodel = "m"\nmax_context_size = 100000\n[loop_control]\nmax_retries_per_step = 1\n`,
  );
  return file;
}

/** Spawns and resolves with the milliseconds until `ready(child, resolve)` calls back, then waits for exit. */
async function timeUntil(node, args, env, ready) {
  const started = performance.now();
  const child = spawn(node, args, { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'ignore'] });
  const at = await new Promise((resolve) => ready(child, () => resolve(performance.now())));
  await new Promise((resolve) => (child.exitCode !== null ? resolve() : child.on('close', resolve)));
  return at - started;
}

/** Runs to the end (asynchronously: the scripted server answers from this process); rejects on failure. */
function runToEnd(node, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(node, args, { env, stdio: 'ignore' });
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${args.join(' ')}: exit ${code}`)),
    );
  });
}

const untilExit = (child, done) => {
  child.stdout.resume();
  child.on('close', done);
};

/** The times of one Node line, medians of `rounds`, the commands taking turns within each round. */
/**
 * The floors under the first request, in files of `dir`: Node's fetch alone (one POST, nothing else:
 * the first `fetch` loads undici and runs its HTTP stack cold), and the official openai SDK alone,
 * bundled as the CLI is, making one streaming request.
 */
async function floorScripts(dir) {
  return { fetchAlone: writeFetchAlone(dir), sdkAlone: await buildSdkAlone(dir) };
}

async function startupTimes(node, rounds, [program, ...prefix] = [node, launcher], withFloors = true) {
  const server = await startScriptedServer();
  const home = mkdtempSync(join(tmpdir(), 'kimi-ts-bench-start-'));
  const work = join(home, 'work');
  mkdirSync(work);
  const config = writeConfig(home, server.baseUrl);
  const env = { KIMI_TS_HOME: join(home, 'home'), HOME: home };
  const cli = [...prefix, '--config-file', config, '-w', work];
  // One full turn first, so the code cache is written as a user's second run finds it.
  server.push({ text: 'warm' });
  await runToEnd(program, [...cli, '--print', '-p', 'warm up'], { ...process.env, ...env });

  const floors = withFloors ? await floorScripts(home) : undefined;
  const untilRequest = (child, done) => {
    child.stdout.resume();
    server.onNextRequest(done);
  };
  const commands = {
    bare: () => timeUntil(node, ['-e', '0'], {}, untilExit),
    ...(floors && {
      fetchAlone: () =>
        timeUntil(node, [floors.fetchAlone], { BENCH_BASE_URL: server.baseUrl }, untilRequest),
      sdkAlone: () => timeUntil(node, [floors.sdkAlone], { BENCH_BASE_URL: server.baseUrl }, untilRequest),
    }),
    version: () => timeUntil(program, [...prefix, '--version'], env, untilExit),
    help: () => timeUntil(program, [...prefix, '--help'], env, untilExit),
    // Line mode (stdin is a pipe): ready when the prompt sign is printed; /exit ends it.
    prompt: () =>
      timeUntil(program, cli, env, (child, done) => {
        let out = '';
        child.stdout.setEncoding('utf8').on('data', (chunk) => {
          out += chunk;
          if (out.includes('› ')) {
            done();
            child.stdin.end('/exit\n');
          }
        });
      }),
    // Until the first request reaches the server (which answers 500; one attempt only).
    first: () => timeUntil(program, [...cli, '--print', '-p', 'hi'], env, untilRequest),
  };
  const times = Object.fromEntries(Object.keys(commands).map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const [name, run] of Object.entries(commands)) times[name].push(await run());
  }
  await server.close();
  rmSync(home, { recursive: true, force: true });
  return Object.fromEntries(Object.entries(times).map(([name, values]) => [name, median(values)]));
}

/**
 * The scripted 3-step session, `runs` times: medians of wall ms, CPU ms, peak tree RSS bytes and the
 * peak RSS of the largest single process (KiB, GNU time's maximum over the CLI and what it waited for).
 */
async function threeStepSession(node, runs) {
  const server = await startScriptedServer();
  const home = mkdtempSync(join(tmpdir(), 'kimi-ts-bench-3step-'));
  const work = join(home, 'work');
  mkdirSync(work);
  writeFileSync(join(work, 'notes.txt'), 'release 2.4: faster start-up\n');
  const config = writeConfig(home, server.baseUrl);
  const env = { ...process.env, KIMI_TS_HOME: join(home, 'home'), HOME: home };
  const script = () =>
    server.push(
      { toolCalls: [{ id: 'r1', name: 'ReadFile', args: { path: 'notes.txt' } }] },
      { toolCalls: [{ id: 's1', name: 'Shell', args: { command: 'wc -l notes.txt' } }] },
      { text: 'The notes have one line about release 2.4.' },
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
  script();
  await runToEnd(node, args, env);
  const wall = [];
  const cpu = [];
  const rss = [];
  const largest = [];
  const timesFile = join(home, 'times.txt');
  for (let i = 0; i < runs; i++) {
    script();
    // The CPU of the CLI and of every process it waited for (the shell command), from wait4.
    const { child, read } = spawnTimed(node, args, { env, stdio: 'ignore' }, timesFile);
    const peak = peakTreeRss(child.pid, { skipRoot: true });
    const code = await new Promise((resolve) => child.on('close', resolve));
    rss.push(await peak.stop());
    if (code !== 0) throw new Error(`the 3-step session exited with ${code}`);
    const times = read();
    wall.push(times.wall);
    cpu.push(times.cpu);
    largest.push(times.maxRss / 1024);
  }
  await server.close();
  rmSync(home, { recursive: true, force: true });
  return { wall: median(wall), cpu: median(cpu), rss: median(rss), largest: median(largest) };
}

const VS_BARE = [
  ['version', 'kimi-ts --version', 1.2],
  ['help', 'kimi-ts --help', 1.2],
  ['prompt', 'interactive prompt ready (line mode)', 2],
  ['first', 'print mode: process start to first model request', 2],
];

function rowsVsBare(prefix, times) {
  const rows = VS_BARE.map(([name, label, limit]) => ({
    name: `${prefix}: ${label}`,
    value: times[name],
    unit: `ms (bare node ${times.bare.toFixed(0)} ms)`,
    ratio: times[name] / times.bare,
    target: `≤ ${limit}× bare node`,
    ok: times[name] / times.bare <= limit,
  }));
  // Issue 26's floor: a Node agent using Node's HTTP stack cannot send a request before Node's own
  // fetch does; the CLI's first request is measured against that, same Node, same run.
  if (times.fetchAlone !== undefined) {
    const ratio = times.first / times.fetchAlone;
    rows.push({
      name: `${prefix}: print mode, first model request vs Node's fetch alone`,
      value: times.first,
      unit: `ms (fetch alone ${times.fetchAlone.toFixed(0)} ms)`,
      ratio,
      target: "≤ 1.5× Node's fetch alone",
      ok: ratio <= 1.5,
    });
  }
  for (const [name, label] of [
    ['sdkAlone', 'the same for the openai SDK alone (bundled, one request, nothing else)'],
    ['fetchAlone', "the same for Node's fetch alone (one POST, nothing else)"],
  ]) {
    if (times[name] === undefined) continue;
    rows.push({
      name: `${prefix}: ${label}`,
      value: times[name],
      unit: `ms (bare node ${times.bare.toFixed(0)} ms)`,
      ratio: times[name] / times.bare,
    });
  }
  return rows;
}

export default async function startupBench() {
  const rows = [];
  for (const node of nodeLines()) {
    const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
    rows.push(...rowsVsBare(version, await startupTimes(node, 11)));
    const session = await threeStepSession(node, 5);
    rows.push({
      name: `${version}: scripted 3-step session (read a file, run a command, answer), wall`,
      value: session.wall,
      unit: 'ms',
    });
    rows.push({ name: `${version}: the same, CPU of the process tree`, value: session.cpu, unit: 'ms' });
    rows.push({
      name: `${version}: the same, peak RSS of the process tree`,
      value: session.rss / 2 ** 20,
      unit: 'MiB',
    });
    // Issue 26: the largest process of a print session (the CLI itself) stays within 80 MiB.
    rows.push({
      name: `${version}: the same, peak RSS of its largest process`,
      value: session.largest / 1024,
      unit: 'MiB',
      target: '≤ 80 MiB',
      ok: session.largest / 1024 <= 80,
    });
  }
  // The single executable of this platform (`npm run build:sea`), when built: its Node is this one.
  const executable = join(root, 'dist/sea/kimi-ts');
  if (existsSync(executable)) {
    const times = await startupTimes(process.execPath, 11, [executable], false);
    rows.push(...rowsVsBare(`single executable (${process.version})`, times));
  }
  return rows;
}
