// A 10,000-step session (bench/vis-session.mjs) through `kimi-ts export --zip` and the vis import:
// the built modules (dist/) write the ZIP (read, redact, sha256, deflate, atomic move) and import it
// (unpack with the limits, check every file against the manifest, rename into place).
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { writeBigSession } from './vis-session.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const STEPS = 10_000;

export default async function () {
  const home = mkdtempSync(join(tmpdir(), 'kimi-ts-bench-zip-'));
  try {
    const session = writeBigSession(home, STEPS);
    const dist = (path) => import(pathToFileURL(join(root, 'dist', path)).href);
    const { writeSessionZip } = await dist('session/archive/write-session-zip.js');
    const { importSessionZip } = await dist('session/archive/import-session-zip.js');
    const output = join(home, 'session.zip');
    const wireMb = statSync(join(session.dir, 'wire.jsonl')).size / 1048576;
    let started = performance.now();
    await writeSessionZip({
      sessionId: session.id,
      sessionDir: session.dir,
      workDir: '/bench',
      title: null,
      output,
      overwrite: false,
      kimiTsVersion: 'bench',
      redact: (text) => text.split('sk-never-present-0123456789').join('[redacted]'),
    });
    const exportMs = performance.now() - started;
    const zipMb = statSync(output).size / 1048576;
    started = performance.now();
    await importSessionZip({ zipPath: output, home: join(home, 'importer') });
    const importMs = performance.now() - started;
    const sizes = `${wireMb.toFixed(1)} MB wire.jsonl → ${zipMb.toFixed(1)} MB ZIP`;
    return [
      { name: `export --zip of ${STEPS} steps (${sizes})`, value: exportMs, unit: 'ms' },
      { name: `vis import of that ZIP (unpack, check sha256, rename)`, value: importMs, unit: 'ms' },
    ];
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
