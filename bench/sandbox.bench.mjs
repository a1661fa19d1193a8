// The command sandbox's cost: `true` run through bubblewrap (the prefix Shell uses: namespaces,
// the seccomp filter, the mounts) against the same `bash -c true` unsandboxed, in the same run,
// alternating. Target: the sandbox adds ≤ 15 ms per command (median). Skipped where it cannot run.
// Info rows, in a workspace of 2,000 folders holding 3 nested repositories: the prefix alone when the
// tree was read between commands (while the model writes its next step), and that reading itself.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createCommandSandbox } from '../dist/policy/sandbox.js';
import { median } from './stats.mjs';

const RUNS = 30;
const TARGET_MS = 15;

function timed(argv) {
  const [file, ...args] = argv;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: 'ignore', detached: true });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve(performance.now() - started)
        : reject(new Error(`${argv.join(' ')}: exit ${code}`)),
    );
  });
}

export default async function sandboxBench() {
  const root = await mkdtemp(join(tmpdir(), 'kimi-ts-bench-sandbox-'));
  const workDir = join(root, 'work');
  await mkdir(workDir);
  try {
    const state = createCommandSandbox(
      { mode: 'workspace-write', network: false },
      {
        workDir,
        additionalDirs: () => [],
        userHome: homedir(),
        kimiHome: join(root, 'home'),
        path: process.env.PATH,
      },
    );
    if (state.kind !== 'on') {
      return [{ name: 'sandboxed `true` (sandbox unavailable here)', value: Number.NaN, unit: 'ms' }];
    }
    const command = ['/bin/bash', '-c', 'true'];
    const plain = [];
    const sandboxed = [];
    for (let i = 0; i < RUNS; i++) {
      plain.push(await timed(command));
      sandboxed.push(await timed([...(await state.sandbox.prefix(workDir)), ...command]));
      state.sandbox.commandEnded();
    }
    state.sandbox.dispose();
    const bare = median(plain);
    const boxed = median(sandboxed);
    const prefix = await prefixInLargeTree(root);
    return [
      { name: 'unsandboxed `bash -c true` (median)', value: bare, unit: 'ms' },
      {
        name: 'sandboxed `bash -c true` (median)',
        value: boxed,
        unit: 'ms',
        ratio: boxed / bare,
        target: `≤ ${TARGET_MS} ms more`,
        ok: boxed - bare <= TARGET_MS,
      },
      {
        name: 'sandbox prefix, 2,000 folders, 3 nested repositories, read between commands (median)',
        value: prefix.onPath,
        unit: 'ms',
      },
      {
        name: 'reading those 2,000 folders for nested .git, off the command path (median)',
        value: prefix.reading,
        unit: 'ms',
      },
    ];
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** The median time of `prefix()` (the mounts it lists, the nested .git search) in a larger tree. */
async function prefixInLargeTree(root) {
  const workDir = join(root, 'large');
  for (let a = 0; a < 40; a++)
    for (let b = 0; b < 50; b++) await mkdir(join(workDir, `d${a}`, `e${b}`), { recursive: true });
  for (const nested of ['d1/e1', 'd20/e7', 'd39/e49']) await mkdir(join(workDir, nested, '.git'));
  const state = createCommandSandbox(
    { mode: 'workspace-write', network: false },
    {
      workDir,
      additionalDirs: () => [],
      userHome: homedir(),
      kimiHome: join(root, 'home'),
      path: process.env.PATH,
    },
  );
  if (state.kind !== 'on') return { onPath: Number.NaN, reading: Number.NaN };
  const onPath = [];
  const reading = [];
  for (let i = 0; i < RUNS; i++) {
    // A command ended: the tree is read again; the next prefix waits for that reading.
    state.sandbox.commandEnded();
    let started = performance.now();
    await state.sandbox.prefix(workDir);
    reading.push(performance.now() - started);
    // The next command, the reading done meanwhile.
    started = performance.now();
    await state.sandbox.prefix(workDir);
    onPath.push(performance.now() - started);
  }
  state.sandbox.dispose();
  return { onPath: median(onPath), reading: median(reading) };
}
