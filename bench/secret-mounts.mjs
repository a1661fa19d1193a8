// What each hidden secret file of the workspace costs a sandboxed command (one more bwrap mount of
// the empty file): `bwrap <the sandbox's arguments> bash -c true` in a work dir holding 0, 10 and 50
// `.env` files (folders a/0 … a/49), as CPU of the process tree (wait4's rusage, tree-times.mjs), the
// three counts taking turns in each round; medians and quartiles. Arguments by path (`prefix`).
// Usage (after `npm run build`): node bench/secret-mounts.mjs [rounds, default 30]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCommandSandbox } from '../dist/policy/sandbox.js';
import { spawnTimed } from './tree-times.mjs';

const ROUNDS = Number(process.argv[2] ?? 30);
const COUNTS = [0, 10, 50];
const root = mkdtempSync(join(tmpdir(), 'kimi-ts-secret-mounts-'));
const home = join(root, 'home');
mkdirSync(home);

function sandboxWith(count) {
  const workDir = join(root, `work-${count}`);
  for (let i = 0; i < count; i++) {
    mkdirSync(join(workDir, 'a', String(i)), { recursive: true });
    writeFileSync(join(workDir, 'a', String(i), '.env'), 'K=v\n');
  }
  mkdirSync(workDir, { recursive: true });
  const state = createCommandSandbox(
    { mode: 'workspace-write', network: false },
    {
      workDir,
      additionalDirs: () => [],
      userHome: home,
      kimiHome: join(home, '.kimi-ts'),
      path: process.env.PATH,
    },
  );
  if (state.kind !== 'on') throw new Error(`no sandbox here: ${state.kind}`);
  return { workDir, sandbox: state.sandbox };
}

async function once({ workDir, sandbox }) {
  const [file, ...args] = [...(await sandbox.prefix(workDir)), '/bin/bash', '-c', 'true'];
  const { child, read } = spawnTimed(file, args, { cwd: workDir, stdio: 'ignore' }, join(root, 'times.txt'));
  await new Promise((done) => child.on('close', done));
  await sandbox.commandEnded();
  return read().cpu;
}

const quartiles = (values) => {
  const s = [...values].sort((a, b) => a - b);
  const at = (q) => s[Math.floor(q * (s.length - 1))];
  return `median ${at(0.5).toFixed(2)} ms (q1 ${at(0.25).toFixed(2)}, q3 ${at(0.75).toFixed(2)})`;
};

try {
  const setups = COUNTS.map(sandboxWith);
  for (const setup of setups) await once(setup);
  const cpu = COUNTS.map(() => []);
  for (let r = 0; r < ROUNDS; r++) for (let i = 0; i < COUNTS.length; i++) cpu[i].push(await once(setups[i]));
  for (let i = 0; i < COUNTS.length; i++)
    console.log(`${COUNTS[i]} hidden .env files: CPU ${quartiles(cpu[i])}`);
  for (const { sandbox } of setups) sandbox.dispose();
} finally {
  rmSync(root, { recursive: true, force: true });
}
