// Checkpoints of the work tree (issue 16's numbers): a 10,000-file workspace recorded in full, again
// after 10 files changed, again with nothing changed, and a rewind over 100 changed files.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { applyRestore } from '../dist/session/checkpoints/apply-restore.js';
import { CheckpointStore } from '../dist/session/checkpoints/checkpoint-store.js';
import { planRestore } from '../dist/session/checkpoints/restore-plan.js';
import { median } from './stats.mjs';

const FILES = 10_000;

async function timed(fn) {
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
}

export default async function checkpointsBench() {
  const root = await mkdtemp(join(tmpdir(), 'kimi-ts-bench-checkpoints-'));
  try {
    const work = join(root, 'work');
    for (let d = 0; d < 100; d++) {
      await mkdir(join(work, `dir${d}`), { recursive: true });
      await Promise.all(
        Array.from({ length: FILES / 100 }, (_, f) =>
          writeFile(join(work, `dir${d}`, `file${f}.ts`), `export const v${d}_${f} = ${d * f};\n`.repeat(20)),
        ),
      );
    }
    const store = await CheckpointStore.open({ home: join(root, 'home'), sessionId: 'bench', roots: [work] });
    const full = await timed(() => store.record('full'));

    const tenChanged = [];
    const unchanged = [];
    for (let run = 0; run < 5; run++) {
      for (let i = 0; i < 10; i++)
        await writeFile(join(work, `dir${i}`, `file${run}.ts`), `changed ${run}\n`);
      tenChanged.push((await timed(() => store.record(`ten ${run}`))).ms);
      unchanged.push((await timed(() => store.record(`same ${run}`))).ms);
    }

    const target = (await store.record('before edits')).checkpoint;
    for (let i = 0; i < 100; i++)
      await writeFile(join(work, `dir${i % 100}`, `file${i}.ts`), `edited ${i}\n`);
    const rewind = await timed(async () => {
      const now = await store.record('before rewind');
      const plan = await planRestore(store.gitDir, now.checkpoint.id, target.id);
      return applyRestore(store.gitDir, store.roots, plan);
    });
    if (rewind.value.applied.length !== 100)
      throw new Error(`rewind applied ${rewind.value.applied.length} files`);

    return [
      {
        name: 'first checkpoint, 10,000 files',
        value: full.ms,
        unit: 'ms',
        target: '≤ 2000 ms',
        ok: full.ms <= 2000,
      },
      {
        name: 'checkpoint, 10 of 10,000 files changed (median of 5)',
        value: median(tenChanged),
        unit: 'ms',
        target: '≤ 100 ms',
        ok: median(tenChanged) <= 100,
      },
      {
        name: 'checkpoint, nothing changed (median of 5)',
        value: median(unchanged),
        unit: 'ms',
        target: '≤ 10 ms',
        ok: median(unchanged) <= 10,
      },
      {
        name: 'rewind over 100 changed files',
        value: rewind.ms,
        unit: 'ms',
        target: '≤ 500 ms',
        ok: rewind.ms <= 500,
      },
    ];
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
