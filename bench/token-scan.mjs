// The sandbox's look for the workspace's secret files as a command waits for it
// (SandboxSecretFiles: the walk, and since the token scan, each file's content), on a real tree:
// the session's first reading (the first command waits for it) and a reading again after a command
// that changed nothing (refresh, then the next command's wait), as CPU time of this process.
// Usage: node bench/token-scan.mjs DIST DIR [ROUNDS]   (DIST: a built dist/, to compare two builds;
// run each in its own process, taking turns: bench/token-scan-ab.mjs).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const dist = resolve(process.argv[2]);
const dir = resolve(process.argv[3]);
const rounds = Number(process.argv[4] ?? 20);
const { SandboxSecretFiles } = await import(pathToFileURL(join(dist, 'policy/sandbox-secret-files.js')).href);

function cpuMs(start) {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

const cache = mkdtempSync(join(tmpdir(), 'kimi-ts-token-scan-'));
try {
  const secrets = new SandboxSecretFiles(cache, true);
  let start = process.cpuUsage();
  const wall = performance.now();
  const bind = secrets.bindsFor
    ? (roots) => secrets.bindsFor(roots, [])
    : (roots) => secrets.files(roots).then((files) => ({ files }));
  const first = await bind([dir]);
  const firstCpu = cpuMs(start);
  const firstWall = performance.now() - wall;
  const again = [];
  for (let i = 0; i < rounds; i++) {
    start = process.cpuUsage();
    secrets.refresh();
    await bind([dir]);
    again.push(cpuMs(start));
  }
  secrets.dispose?.();
  again.sort((a, b) => a - b);
  console.log(
    JSON.stringify({
      files: first.files.length,
      copies: first.copies?.size ?? 0,
      firstCpu,
      firstWall,
      againMedian: again[Math.floor(again.length / 2)],
    }),
  );
} finally {
  rmSync(cache, { recursive: true, force: true });
}
