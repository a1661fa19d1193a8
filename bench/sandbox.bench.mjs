// The command sandbox's cost: `true` run through bubblewrap (the prefix Shell uses: namespaces,
// the seccomp filter, the mounts) against the same `bash -c true` unsandboxed, in the same run,
// alternating. Target: the sandbox adds ≤ 15 ms per command (median). Skipped where it cannot run.
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
      sandboxed.push(await timed([...state.sandbox.prefix(workDir), ...command]));
    }
    state.sandbox.dispose();
    const bare = median(plain);
    const boxed = median(sandboxed);
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
    ];
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
