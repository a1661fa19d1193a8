// The first sandboxed command of a session on a real tree, and the commands after it, for one build
// (DIST): the session's turn begins (the workspace's secret files, and since the token scan their
// content, are looked for while the model is asked), then at once (a model that answers at once: the
// worst case) a command runs through the sandbox (`true`), and then ROUNDS more, each after the last
// one ended. Prints wall times (turn begin → the first command's exit; each later command's prefix →
// exit) and this process's CPU (the sandbox's own work, not bwrap's), as JSON.
// Usage: node bench/first-command.mjs DIST DIR [ROUNDS]  (run builds in turns: bench/first-command-ab.mjs)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const dist = resolve(process.argv[2]);
const workDir = resolve(process.argv[3]);
const rounds = Number(process.argv[4] ?? 20);
const { createCommandSandbox } = await import(pathToFileURL(join(dist, 'policy/sandbox.js')).href);

function run(argv) {
  const [file, ...args] = argv;
  return new Promise((done, fail) => {
    const child = spawn(file, args, { stdio: 'ignore' });
    child.once('error', fail);
    child.once('exit', (code) => (code === 0 ? done() : fail(new Error(`exit ${code}`))));
  });
}

const cpuMs = (start) => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};

const home = mkdtempSync(join(tmpdir(), 'kimi-ts-first-command-'));
try {
  const state = createCommandSandbox(
    { mode: 'workspace-write', network: false, scanWorkspaceTokens: true },
    { workDir, additionalDirs: () => [], userHome: homedir(), kimiHome: home, path: process.env.PATH },
  );
  if (state.kind !== 'on') throw new Error('the sandbox cannot run here');
  const { sandbox } = state;
  let cpu = process.cpuUsage();
  let wall = performance.now();
  sandbox.turnBegins();
  await run([...(await sandbox.prefix(workDir)), '/bin/true']);
  const first = { wall: performance.now() - wall, cpu: cpuMs(cpu) };
  await sandbox.commandEnded();
  const walls = [];
  const cpus = [];
  for (let i = 0; i < rounds; i++) {
    cpu = process.cpuUsage();
    wall = performance.now();
    await run([...(await sandbox.prefix(workDir)), '/bin/true']);
    walls.push(performance.now() - wall);
    // The reading after the command: its CPU counts for the step (it runs while the model is asked).
    await sandbox.commandEnded();
    cpus.push(cpuMs(cpu));
  }
  sandbox.dispose();
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  console.log(JSON.stringify({ first, laterWall: median(walls), laterCpu: median(cpus) }));
} finally {
  rmSync(home, { recursive: true, force: true });
}
