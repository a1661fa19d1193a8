// Issue 26: everything on (checkpoints, the policy's parsed shell, secrets, live output, the wire
// recording) at (almost) no cost. Each row is measured against its baseline in the same run:
// - the scripted 3-step session (read a file, run a command, answer) in a fresh work dir each time,
//   checkpoints on against checkpoints off (the store's creation included): CPU and wall;
// - git processes: in that session, and per step whose command changed nothing (Shell steps added);
// - one Shell step of a session against a bare child-process spawn of the same command (CPU), and
//   (info) against a bare spawn of it through the same sandbox: bwrap with the session's arguments,
//   so what kimi-ts adds is told apart from the sandbox's own cost (issue #24 budgets that);
// - the largest process of the print session (peak RSS);
// - the same session with the launcher's start-up tuning of V8 against V8's defaults (RSS, CPU, wall);
// - (info) the Shell step's two rows again under the CI's Node 22 and 24, the lines people run: Node
//   24's AsyncLocalStorage no longer enables a promise hook for every promise (AsyncContextFrame).
// CPU is user + system time of the process tree (wait4's rusage, in µs: GNU time's output has 10 ms
// steps, 4% of the session, and the ratio moved 1.00–1.09 between runs), which a loaded machine disturbs far less
// than wall time; the sessions of a pair take turns, so a machine that slows down slows both.
// wait4 counts only the processes the tree reaps: before the sandbox ran the command as its PID
// namespace's PID 1 (`--as-pid-1`), bwrap's init was reaped by the machine's init, and the sandboxed
// command's own CPU (bash and wc, ~2.3 ms) was missing from the step while the bare spawn counted it.
// Rows from before that change are not comparable with later ones.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCommandSandbox } from '../dist/policy/sandbox.js';
import { nodeLines } from './node-lines.mjs';
import { startScriptedServer } from './scripted-server.mjs';
import { median } from './stats.mjs';
import { spawnTimed } from './tree-times.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const launcher = join(here, '..', 'dist/bin/kimi-ts.cjs');
const COMMAND = 'wc -l notes.txt';
const ROUNDS = 5;

function writeConfig(dir, baseUrl, checkpoints) {
  const file = join(dir, `config-${checkpoints ? 'on' : 'off'}.toml`);
  writeFileSync(
    file,
    `default_model = "m"\n[providers.p]\ntype = "openai_legacy"\nbase_url = "${baseUrl}"\napi_key = "k"\n[models.m]\nprovider = "p"\nmodel = "m"\nmax_context_size = 100000\n[loop_control]\nmax_retries_per_step = 1\nmax_steps_per_turn = 100\n[checkpoints]\nenabled = ${checkpoints}\n`,
  );
  return file;
}

/** A fresh work dir under `home` holding the one file the session reads. */
function freshWorkDir(home) {
  const work = mkdtempSync(join(home, 'work-'));
  writeFileSync(join(work, 'notes.txt'), 'release 2.4: faster start-up\n');
  return work;
}

/**
 * The model's turns: read the file, run the command `shellSteps` times, answer. Each run of the
 * command carries a different comment: the same call again and again would be cut short by the
 * toolset's repeat guard instead of running.
 */
function script(server, shellSteps) {
  const turns = [{ toolCalls: [{ id: 'r1', name: 'ReadFile', args: { path: 'notes.txt' } }] }];
  for (let i = 0; i < shellSteps; i++) {
    const command = `${COMMAND} # step ${i + 1}`;
    turns.push({ toolCalls: [{ id: `s${i}`, name: 'Shell', args: { command } }] });
  }
  turns.push({ text: 'The notes have one line about release 2.4.' });
  server.push(...turns);
}

/**
 * Runs `node args` under the wait4 reader (tree-times.mjs): { wall, cpu } in ms of the whole tree
 * (the CLI and every process it waited for), `self` (the node processes' own CPU) and `rss`, the
 * peak resident memory of its largest process, in bytes.
 */
async function timed(node, args, env, timesFile) {
  const selfFile = `${timesFile}.self`;
  writeFileSync(selfFile, '');
  env = {
    ...env,
    KIMI_TS_BENCH_SELF_CPU: selfFile,
    NODE_OPTIONS: `--require ${selfCpuPreload(dirname(timesFile))}`,
  };
  const { child, read } = spawnTimed(node, args, { env, stdio: 'ignore' }, timesFile);
  const code = await new Promise((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`${args.join(' ')}: exit ${code}`);
  const { cpu, wall, maxRss } = read();
  // The node processes' own CPU (the CLI's, or the bare spawner's), apart from their children's.
  const self = readFileSync(selfFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .reduce((sum, line) => sum + Number(line), 0);
  return { wall, cpu, self, rss: maxRss };
}

/** A preload that appends the process's own CPU time (ms, all its threads) to a file at exit. */
function selfCpuPreload(dir) {
  const file = join(dir, 'self-cpu-preload.cjs');
  writeFileSync(
    file,
    `const out = process.env.KIMI_TS_BENCH_SELF_CPU;
if (out) process.on('exit', () => {
  const u = process.cpuUsage();
  require('node:fs').appendFileSync(out, (u.user + u.system) / 1000 + '\\n');
});\n`,
  );
  return file;
}

/** A `git` first on PATH that counts its runs in `log` and runs the real one. */
function gitCounter(dir) {
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  const bin = join(dir, 'git-counter');
  mkdirSync(bin);
  const log = join(dir, 'git-runs.log');
  writeFileSync(log, '');
  writeFileSync(join(bin, 'git'), `#!/bin/sh\necho "$1" >> '${log}'\nexec '${real}' "$@"\n`);
  chmodSync(join(bin, 'git'), 0o755);
  return {
    path: `${bin}:${process.env.PATH}`,
    count: () => readFileSync(log, 'utf8').split('\n').filter(Boolean).length,
    reset: () => writeFileSync(log, ''),
  };
}

const sessionArgs = (config, work) => [
  launcher,
  ...['--config-file', config, '-w', work, '--yolo', '--print', '-p', 'read, count, answer'],
];

/** Checkpoints on against off, fresh work dir each run: medians of wall and CPU, and the peak RSS. */
async function checkpointsCost(node, server, home) {
  const env = { ...process.env, KIMI_TS_HOME: join(home, 'home'), HOME: home };
  const configs = {
    on: writeConfig(home, server.baseUrl, true),
    off: writeConfig(home, server.baseUrl, false),
  };
  const timesFile = join(home, 'times.txt');
  const run = async (which) => {
    script(server, 1);
    return timed(node, sessionArgs(configs[which], freshWorkDir(home)), env, timesFile);
  };
  // Warm-up: the code cache is written, the checkpoints folder exists (and its hourly prune is done).
  await run('on');
  await run('off');
  const results = { on: [], off: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const which of round % 2 ? ['off', 'on'] : ['on', 'off']) results[which].push(await run(which));
  }
  const of = (which, key) => median(results[which].map((r) => r[key]));
  return {
    cpu: { on: of('on', 'cpu'), off: of('off', 'cpu') },
    wall: { on: of('on', 'wall'), off: of('off', 'wall') },
    rss: of('on', 'rss'),
  };
}

/**
 * git processes of the session in a fresh work dir (and a fresh home: no prune of older stores),
 * and per Shell step that changed nothing: a session with 3 such steps against one with 1.
 */
async function gitProcesses(node, server, home) {
  const counter = gitCounter(home);
  const config = writeConfig(home, server.baseUrl, true);
  const count = async (shellSteps) => {
    const fresh = mkdtempSync(join(home, 'home-'));
    const env = { ...process.env, PATH: counter.path, KIMI_TS_HOME: fresh, HOME: fresh };
    counter.reset();
    script(server, shellSteps);
    await timed(node, sessionArgs(config, freshWorkDir(home)), env, join(home, 'times.txt'));
    return counter.count();
  };
  const one = await count(1);
  const three = await count(3);
  return { session: one, perQuietStep: (three - one) / 2 };
}

/**
 * CPU of one Shell step: a session with 41 Shell steps against one with 1, the difference over 40;
 * the baseline is the same for a bare `spawn` of the command from Node (41 against 1).
 *
 * With V8's defaults (KIMI_TS_START_UP_MS=0): the launcher keeps V8's optimizing compilers off for
 * the first 3 s, and the 41 scripted steps fit in that, but a person's steps come after the model
 * has thought, long after start-up. The row is a step of a session under way.
 */
async function perStepCpu(node, server, home) {
  const env = { ...process.env, KIMI_TS_HOME: join(home, 'home'), HOME: home, KIMI_TS_START_UP_MS: '0' };
  const config = writeConfig(home, server.baseUrl, true);
  const timesFile = join(home, 'times.txt');
  const spawner = join(home, 'spawn-alone.cjs');
  writeFileSync(
    spawner,
    `const { spawn } = require('node:child_process');
let left = Number(process.argv[2]);
const next = () => { if (left-- > 0) spawn('/bin/bash', ['-c', ${JSON.stringify(COMMAND)}], { cwd: process.argv[3], stdio: 'pipe' }).on('close', next); };
next();\n`,
  );
  const session = (steps) => {
    script(server, steps);
    return timed(node, sessionArgs(config, freshWorkDir(home)), env, timesFile);
  };
  const bare = (spawns) => timed(node, [spawner, String(spawns), freshWorkDir(home)], env, timesFile);
  const boxedSpawner = sandboxedSpawner(home, config);
  const boxed = async (spawns) =>
    timed(
      node,
      [boxedSpawner.file, String(spawns), await boxedSpawner.launchFor(freshWorkDir(home))],
      env,
      timesFile,
    );
  await session(1);
  const step = [];
  const stepSelf = [];
  const spawnOnly = [];
  const spawnSelf = [];
  const boxedOnly = [];
  const boxedSelf = [];
  for (let round = 0; round < ROUNDS; round++) {
    const [many, one] = [await session(41), await session(1)];
    step.push((many.cpu - one.cpu) / 40);
    stepSelf.push((many.self - one.self) / 40);
    const [manyBare, oneBare] = [await bare(41), await bare(1)];
    spawnOnly.push((manyBare.cpu - oneBare.cpu) / 40);
    spawnSelf.push((manyBare.self - oneBare.self) / 40);
    if (boxedSpawner) {
      const [manyBoxed, oneBoxed] = [await boxed(41), await boxed(1)];
      boxedOnly.push((manyBoxed.cpu - oneBoxed.cpu) / 40);
      boxedSelf.push((manyBoxed.self - oneBoxed.self) / 40);
    }
  }
  return {
    step: median(step),
    spawn: median(spawnOnly),
    // The same spawn behind the sandbox as the session sets it up (NaN where it cannot run).
    boxedSpawn: boxedSpawner ? median(boxedOnly) : Number.NaN,
    boxedSpawnSelf: boxedSpawner ? median(boxedSelf) : Number.NaN,
    // Of the step: the CLI process's own CPU (the model request, policy, recording, spawn) and its
    // children's (bwrap, bash, the command; git when a checkpoint asks it).
    stepSelf: median(stepSelf),
    spawnSelf: median(spawnSelf),
  };
}

/**
 * A spawner of the command through the sandbox as the session sets it up: bwrap with the arguments
 * the session's first command gets (src/policy/sandbox.ts, the same homes, config file and work
 * dir), its seccomp program on descriptor 3 and its bind sources from 4 on, opened once and passed
 * to every spawn. What the session adds beyond it is kimi-ts's own work, apart from the sandbox's
 * cost (bwrap's namespaces and mounts, issue #24). null where the sandbox cannot run.
 * `launchFor(work)` writes that launch for a fresh work dir to a file and returns its path.
 */
function sandboxedSpawner(home, config) {
  const contextFor = (workDir) => ({
    workDir,
    additionalDirs: () => [],
    userHome: home,
    kimiHome: join(home, 'home'),
    configFiles: [config],
    path: process.env.PATH,
  });
  const probe = createCommandSandbox(
    { mode: 'workspace-write', network: false },
    contextFor(freshWorkDir(home)),
  );
  if (probe.kind !== 'on') return null;
  probe.sandbox.dispose();
  const file = join(home, 'spawn-sandboxed.cjs');
  writeFileSync(
    file,
    `const { spawn } = require('node:child_process');
const { closeSync, openSync, readFileSync, constants } = require('node:fs');
const launch = JSON.parse(readFileSync(process.argv[3], 'utf8'));
const binds = launch.bindSources.map((source) => openSync(source, constants.O_RDONLY | constants.O_NOFOLLOW));
const [file, ...args] = [...launch.argv, '/bin/bash', '-c', ${JSON.stringify(COMMAND)}];
let left = Number(process.argv[2]);
const next = (code) => {
  if (code !== 0) process.exit(1);
  if (left-- <= 0) return;
  // bwrap reads the seccomp program to its end: each spawn its own descriptor (offset), as the session's.
  const seccomp = launch.fd3File === null ? ['ignore'] : [openSync(launch.fd3File, 'r')];
  spawn(file, args, { cwd: launch.cwd, stdio: ['ignore', 'pipe', 'pipe', ...seccomp, ...binds], detached: true }).on('close', next);
  for (const fd of seccomp) if (fd !== 'ignore') closeSync(fd);
};
next(0);\n`,
  );
  return {
    file,
    launchFor: async (workDir) => {
      const state = createCommandSandbox({ mode: 'workspace-write', network: false }, contextFor(workDir));
      if (state.kind !== 'on') throw new Error('the sandbox stopped being available');
      // Not disposed: its `.kimi-ts` placeholder, a bind source, stays for the spawner to open.
      const launch = await state.sandbox.launch(workDir);
      await state.sandbox.commandEnded();
      const launchFile = join(workDir, '..', `launch-${Date.now()}.json`);
      writeFileSync(launchFile, JSON.stringify({ ...launch, cwd: workDir }));
      return launchFile;
    },
  };
}

/**
 * The launcher's start-up tuning of V8 (src/bin/kimi-ts.cts: bytecode only and a young generation
 * that does not grow, for KIMI_TS_START_UP_MS) against none (KIMI_TS_START_UP_MS=0: V8's defaults
 * come back once the bundle has been evaluated, before the session's work): the 3-step session,
 * fresh work dir, runs taking turns. Medians of peak RSS of the largest process, CPU and wall.
 */
async function startUpTuningCost(node, server, home) {
  const config = writeConfig(home, server.baseUrl, true);
  const timesFile = join(home, 'times-tuning.txt');
  const run = async (which) => {
    script(server, 1);
    const env = { ...process.env, KIMI_TS_HOME: join(home, 'home'), HOME: home };
    if (which === 'none') env.KIMI_TS_START_UP_MS = '0';
    else delete env.KIMI_TS_START_UP_MS;
    return timed(node, sessionArgs(config, freshWorkDir(home)), env, timesFile);
  };
  await run('tuned');
  await run('none');
  const results = { tuned: [], none: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const which of round % 2 ? ['none', 'tuned'] : ['tuned', 'none'])
      results[which].push(await run(which));
  }
  const of = (which, key) => median(results[which].map((r) => r[key]));
  return Object.fromEntries(
    ['rss', 'cpu', 'wall'].map((key) => [key, { tuned: of('tuned', key), none: of('none', key) }]),
  );
}

export default async function everythingOnBench() {
  const node = process.execPath;
  const server = await startScriptedServer();
  const home = mkdtempSync(join(tmpdir(), 'kimi-ts-bench-everything-'));
  try {
    const cost = await checkpointsCost(node, server, home);
    const git = await gitProcesses(node, server, home);
    const step = await perStepCpu(node, server, home);
    const tuning = await startUpTuningCost(node, server, home);
    const otherLines = [];
    for (const other of nodeLines().filter((line) => line !== node)) {
      const version = execFileSync(other, ['--version'], { encoding: 'utf8' }).trim();
      otherLines.push({ version, step: await perStepCpu(other, server, home) });
    }
    const cpuRatio = cost.cpu.on / cost.cpu.off;
    const wallRatio = cost.wall.on / cost.wall.off;
    const stepOverhead = step.step - step.spawn;
    return [
      {
        name: '3-step session, fresh work dir: CPU with checkpoints on (vs off)',
        value: cost.cpu.on,
        unit: `ms (off ${cost.cpu.off.toFixed(0)} ms)`,
        ratio: cpuRatio,
        target: '≤ 1.05× off',
        ok: cpuRatio <= 1.05,
      },
      {
        name: '3-step session, fresh work dir: wall with checkpoints on (vs off)',
        value: cost.wall.on,
        unit: `ms (off ${cost.wall.off.toFixed(0)} ms)`,
        ratio: wallRatio,
        target: '≤ 1.05× off',
        ok: wallRatio <= 1.05,
      },
      {
        name: '3-step session, fresh work dir: git processes',
        value: git.session,
        unit: 'processes',
        target: 'info',
        ok: true,
      },
      {
        name: 'git processes per Shell step that changed nothing',
        value: git.perQuietStep,
        unit: 'processes',
        target: '0',
        ok: git.perQuietStep === 0,
      },
      {
        name: `one Shell step (${COMMAND}) minus a bare spawn of it: CPU`,
        value: stepOverhead,
        unit: `ms (step ${step.step.toFixed(1)} ms, spawn ${step.spawn.toFixed(1)} ms)`,
        target: '≤ 5 ms',
        ok: stepOverhead <= 5,
      },
      {
        name: `one Shell step minus a bare spawn of it through the same sandbox (bwrap, kimi-ts's arguments): CPU`,
        value: step.step - step.boxedSpawn,
        unit: `ms (step ${step.step.toFixed(1)} ms, sandboxed spawn ${step.boxedSpawn.toFixed(1)} ms; its spawner ${step.boxedSpawnSelf.toFixed(1)} ms, bwrap and bash ${(step.boxedSpawn - step.boxedSpawnSelf).toFixed(1)} ms)`,
        target: 'info',
        ok: true,
      },
      {
        name: `one Shell step minus a bare spawn: CPU of the CLI process alone (children apart)`,
        value: step.stepSelf - step.spawnSelf,
        unit: `ms (CLI ${step.stepSelf.toFixed(1)} ms, children ${(step.step - step.stepSelf).toFixed(1)} ms; spawner ${step.spawnSelf.toFixed(1)} ms, bash ${(step.spawn - step.spawnSelf).toFixed(1)} ms)`,
        target: 'info',
        ok: true,
      },
      {
        name: '3-step session: peak RSS of its largest process',
        value: cost.rss / 2 ** 20,
        unit: 'MiB',
        target: '≤ 80 MiB',
        ok: cost.rss / 2 ** 20 <= 80,
      },
      ...otherLines.flatMap(({ version, step: other }) => [
        {
          name: `${version}: one Shell step minus a bare spawn of it: CPU`,
          value: other.step - other.spawn,
          unit: `ms (step ${other.step.toFixed(1)} ms, spawn ${other.spawn.toFixed(1)} ms)`,
          target: 'info',
          ok: true,
        },
        {
          name: `${version}: one Shell step minus a bare spawn of it through the same sandbox: CPU`,
          value: other.step - other.boxedSpawn,
          unit: `ms (sandboxed spawn ${other.boxedSpawn.toFixed(1)} ms; CLI alone ${other.stepSelf.toFixed(1)} ms)`,
          target: 'info',
          ok: true,
        },
      ]),
      ...[
        ['peak RSS of its largest process', 'rss', 2 ** 20, 'MiB'],
        ['CPU', 'cpu', 1, 'ms'],
        ['wall', 'wall', 1, 'ms'],
      ].map(([what, key, scale, unit]) => ({
        name: `3-step session: ${what}, V8 tuned for start-up (vs V8's defaults, KIMI_TS_START_UP_MS=0)`,
        value: tuning[key].tuned / scale,
        unit: `${unit} (defaults ${(tuning[key].none / scale).toFixed(1)} ${unit})`,
        ratio: tuning[key].tuned / tuning[key].none,
        target: 'info',
        ok: true,
      })),
    ];
  } finally {
    await server.close();
    rmSync(home, { recursive: true, force: true });
  }
}
