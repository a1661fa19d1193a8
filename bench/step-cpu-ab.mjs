// A/B of one Shell step's CPU (everything-on's perStepCpu approach, without the bare spawns): for
// two built checkouts A and B, in A B B A rounds, a print session of 41 Shell steps minus one of 1, CPU of
// the whole process tree (wait4 rusage) / 40. Both run the same command, so the bare spawn cancels
// out of the difference B − A. Used for issue #26 (AsyncLocalStorage's promise hooks on Node 20/22).
// Usage: node bench/step-cpu-ab.mjs DIR_A DIR_B [rounds] [node binary] [extra NODE_OPTIONS for B]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startScriptedServer } from './scripted-server.mjs';
import { median } from './stats.mjs';
import { spawnTimed } from './tree-times.mjs';

const [dirA, dirB, roundsArg, nodeArg, extraB] = process.argv.slice(2);
const ROUNDS = Number(roundsArg ?? 7);
const node = nodeArg ?? process.execPath;
const COMMAND = 'wc -l notes.txt';

const server = await startScriptedServer();
const home = mkdtempSync(join(tmpdir(), 'kimi-ts-step-ab-'));
const config = join(home, 'config.toml');
writeFileSync(
  config,
  `default_model = "m"\n[providers.p]\ntype = "openai_legacy"\nbase_url = "${server.baseUrl}"\napi_key = "k"\n[models.m]\nprovider = "p"\nmodel = "m"\nmax_context_size = 100000\n[loop_control]\nmax_retries_per_step = 1\nmax_steps_per_turn = 100\n[checkpoints]\nenabled = true\n`,
);
const env = { ...process.env, KIMI_TS_HOME: join(home, 'home'), HOME: home, KIMI_TS_START_UP_MS: '0' };

async function session(dir, steps, nodeOptions) {
  const turns = [{ toolCalls: [{ id: 'r1', name: 'ReadFile', args: { path: 'notes.txt' } }] }];
  for (let i = 0; i < steps; i++)
    turns.push({
      toolCalls: [{ id: `s${i}`, name: 'Shell', args: { command: `${COMMAND} # step ${i + 1}` } }],
    });
  turns.push({ text: 'The notes have one line.' });
  server.push(...turns);
  const work = mkdtempSync(join(home, 'work-'));
  writeFileSync(join(work, 'notes.txt'), 'release 2.4: faster start-up\n');
  const args = [
    join(dir, 'dist/bin/kimi-ts.cjs'),
    '--config-file',
    config,
    '-w',
    work,
    '--yolo',
    '--print',
    '-p',
    'go',
  ];
  const timesFile = join(home, 'times.txt');
  const { child, read } = spawnTimed(
    node,
    args,
    { env: { ...env, NODE_OPTIONS: nodeOptions ?? '' }, stdio: 'ignore' },
    timesFile,
  );
  const code = await new Promise((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`${dir}: exit ${code}`);
  return read().cpu;
}

const perStep = async (dir, opts) => ((await session(dir, 41, opts)) - (await session(dir, 1, opts))) / 40;
try {
  await session(dirA, 1);
  await session(dirB, 1, extraB);
  const a = [];
  const b = [];
  const diff = [];
  // Each round is A B B A: a position in the round that costs more (a machine's rhythm, the home's
  // growing session list) weighs on both alike.
  for (let round = 0; round < ROUNDS; round++) {
    const a1 = await perStep(dirA);
    const b1 = await perStep(dirB, extraB);
    const b2 = await perStep(dirB, extraB);
    const a2 = await perStep(dirA);
    a.push((a1 + a2) / 2);
    b.push((b1 + b2) / 2);
    diff.push((b1 + b2 - a1 - a2) / 2);
  }
  const fmt = (v) => v.map((n) => n.toFixed(2)).join(' ');
  const spread = (v) => `${Math.min(...v).toFixed(2)}..${Math.max(...v).toFixed(2)}`;
  console.log(`node ${node}`);
  console.log(`A ${dirA}: median ${median(a).toFixed(2)} ms/step [${spread(a)}] (${fmt(a)})`);
  console.log(
    `B ${dirB}${extraB ? ` (${extraB})` : ''}: median ${median(b).toFixed(2)} ms/step [${spread(b)}] (${fmt(b)})`,
  );
  console.log(`B-A per round: median ${median(diff).toFixed(2)} ms [${spread(diff)}] (${fmt(diff)})`);
} finally {
  await server.close?.();
  rmSync(home, { recursive: true, force: true });
}
