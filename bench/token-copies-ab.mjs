// Two builds side by side in one process, taking turns, on a real tree (the sandbox's per-command
// cost of the token scan: bench/first-command.mjs has the first command): for each round and build,
// a command ends (`commandEnded`) and the next command's prefix waits for the reading of the tree made
// after it (CPU of this process from the end to the prefix: the git check, the walk, since the scan
// the files' stats), then
// `true` runs through the sandbox (wall: bwrap with each build's mounts, the redacted copies' too).
// Usage: node bench/token-copies-ab.mjs BASE_DIST NEW_DIST DIR [ROUNDS]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [baseDist, newDist, dir] = process.argv.slice(2, 5).map((arg) => resolve(arg));
const rounds = Number(process.argv[5] ?? 30);

const run = (argv) =>
  new Promise((done, fail) => {
    const child = spawn(argv[0], argv.slice(1), { stdio: 'ignore' });
    child.once('error', fail);
    child.once('exit', (code) => (code === 0 ? done() : fail(new Error(`exit ${code}`))));
  });
const cpuMs = (start) => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const quartiles = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.floor((sorted.length - 1) * q)].toFixed(2);
  return `median ${median(values).toFixed(2)} (q1 ${at(0.25)}, q3 ${at(0.75)})`;
};

const homes = [];
async function sandboxOf(dist) {
  const { createCommandSandbox } = await import(pathToFileURL(join(dist, 'policy/sandbox.js')).href);
  const home = mkdtempSync(join(tmpdir(), 'kimi-ts-token-ab-'));
  homes.push(home);
  const state = createCommandSandbox(
    { mode: 'workspace-write', network: false, scanWorkspaceTokens: true },
    { workDir: dir, additionalDirs: () => [], userHome: homedir(), kimiHome: home, path: process.env.PATH },
  );
  if (state.kind !== 'on') throw new Error('the sandbox cannot run here');
  // The first reading, out of the rounds.
  await run([...(await state.sandbox.prefix(dir)), '/bin/true']);
  return state.sandbox;
}

try {
  const builds = [
    { name: 'base', sandbox: await sandboxOf(baseDist), reading: [], command: [], args: 0 },
    { name: 'new', sandbox: await sandboxOf(newDist), reading: [], command: [], args: 0 },
  ];
  for (let i = 0; i < rounds; i++)
    for (const build of i % 2 === 0 ? builds : [...builds].reverse()) {
      const cpu = process.cpuUsage();
      await build.sandbox.commandEnded();
      const prefix = await build.sandbox.prefix(dir);
      build.reading.push(cpuMs(cpu));
      build.args = prefix.length;
      const started = performance.now();
      await run([...prefix, '/bin/true']);
      build.command.push(performance.now() - started);
    }
  for (const build of builds) {
    build.sandbox.dispose();
    console.log(
      `${build.name}: reading after a command, CPU ms ${quartiles(build.reading)}; sandboxed \`true\`, wall ms ${quartiles(build.command)}; ${build.args} bwrap arguments`,
    );
  }
} finally {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
}
