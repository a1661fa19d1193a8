// A Shell step in a repository of a realistic size (20,000 files in 2,000 folders, a git work tree)
// against the same step in a one-file work dir: what the step's own work costs (policy, sandbox,
// checkpoints, recording) and what grows with the tree (the sandbox's search for nested
// repositories, the checkpoints' look at what changed). The everything-on bench's work dir holds one
// file, so it never saw this: a step in such a repository cost 169 ms of CPU against 10 in the small
// one, most of it a walk of every folder after each command.
//
// CPU of the process tree (wait4's rusage) per step: a session with 21 Shell steps against one with
// 1, the difference over 20; checkpoints on, the sandbox as the machine allows (on by default).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startScriptedServer } from './scripted-server.mjs';
import { median } from './stats.mjs';
import { spawnTimed } from './tree-times.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const launcher = join(here, '..', 'dist/bin/kimi-ts.cjs');
const ROUNDS = 3;
const STEPS = 21;
const FOLDERS = 2_000;
const FILES_PER_FOLDER = 10;

/** A committed git work tree of `folders` folders of `files` small files each (and notes.txt). */
function repository(home, folders, files) {
  const work = mkdtempSync(join(home, 'work-'));
  for (let d = 0; d < folders; d++) {
    const folder = join(work, `pkg${d % 20}`, `mod${d}`);
    mkdirSync(folder, { recursive: true });
    for (let f = 0; f < files; f++) writeFileSync(join(folder, `f${f}.ts`), `export const x${f} = ${f};\n`);
  }
  writeFileSync(join(work, 'notes.txt'), 'release 2.4: faster start-up\n');
  const git = (...args) =>
    execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@b', ...args], {
      cwd: work,
      stdio: 'ignore',
    });
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'tree');
  return work;
}

function session(server, home, config, work, shellSteps) {
  const turns = [{ toolCalls: [{ id: 'r1', name: 'ReadFile', args: { path: 'notes.txt' } }] }];
  for (let i = 0; i < shellSteps; i++)
    turns.push({ toolCalls: [{ id: `s${i}`, name: 'Shell', args: { command: `wc -l notes.txt # ${i}` } }] });
  turns.push({ text: 'Counted.' });
  server.push(...turns);
  // V8's defaults from the start, as for a step of a session under way (everything-on says why).
  const env = { ...process.env, KIMI_TS_HOME: join(home, 'home'), HOME: home, KIMI_TS_START_UP_MS: '0' };
  const args = [launcher, '--config-file', config, '-w', work, '--yolo', '--print', '-p', 'count'];
  const { child, read } = spawnTimed(
    process.execPath,
    args,
    { env, stdio: 'ignore' },
    join(home, 'times.txt'),
  );
  return new Promise((resolve, reject) =>
    child.on('close', (code) => (code === 0 ? resolve(read()) : reject(new Error(`session: exit ${code}`)))),
  );
}

async function perStep(server, home, config, work) {
  await session(server, home, config, work, 1);
  const steps = [];
  for (let round = 0; round < ROUNDS; round++) {
    const many = await session(server, home, config, work, STEPS);
    const one = await session(server, home, config, work, 1);
    steps.push((many.cpu - one.cpu) / (STEPS - 1));
  }
  return median(steps);
}

export default async function repoStepBench() {
  const server = await startScriptedServer();
  const home = mkdtempSync(join(tmpdir(), 'kimi-ts-bench-repo-'));
  try {
    const config = join(home, 'config.toml');
    writeFileSync(
      config,
      `default_model = "m"\n[providers.p]\ntype = "openai_legacy"\nbase_url = "${server.baseUrl}"\napi_key = "k"\n[models.m]\nprovider = "p"\nmodel = "m"\nmax_context_size = 100000\n[loop_control]\nmax_retries_per_step = 1\nmax_steps_per_turn = 100\n`,
    );
    const small = await perStep(server, home, config, repository(home, 1, 1));
    const big = await perStep(server, home, config, repository(home, FOLDERS, FILES_PER_FOLDER));
    const files = FOLDERS * FILES_PER_FOLDER;
    return [
      {
        name: `one Shell step in a ${files.toLocaleString('en')}-file repository: CPU (vs a one-file repository)`,
        value: big,
        unit: `ms (one file ${small.toFixed(1)} ms)`,
        ratio: big / small,
        target: '≤ 10 ms more',
        ok: big - small <= 10,
      },
    ];
  } finally {
    await server.close();
    rmSync(home, { recursive: true, force: true });
  }
}
