// `kimi-ts vis` of a 10,000-step session (bench/vis-session.mjs): the model built from wire.jsonl in
// this process, then the built CLI's server opened in Debian's Chromium (playwright-core) — from
// navigation start to the page's first drawn timeline (the `vis-first-render` mark), cold (the server
// reads the session on that request) and warm (read before) — and the exported HTML from file://.
// Target (issue 15): data served + first render ≤ 2 s. Skipped when /usr/bin/chromium is missing.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../test/support/chromium-launch.mjs';
import { writeBigSession } from './vis-session.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const launcher = join(root, 'dist/bin/kimi-ts.cjs');
const STEPS = 10_000;
const TARGET_MS = 2000;

function startVis(env, id) {
  const args = [launcher, 'vis', '--no-open', '--port', '0', ...(id ? [id] : [])];
  const child = spawn(process.execPath, args, {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const match = /http:\/\/\S+#token=\S+/.exec(out);
      if (match) resolve({ child, url: match[0] });
    });
    child.on('close', (code) => reject(new Error(`vis exited ${code}: ${out}`)));
  });
}

async function firstRenderMs(page, url) {
  await page.goto(url);
  await page.waitForSelector('html[data-vis-rendered]', { timeout: 60_000 });
  return page.evaluate(() => performance.getEntriesByName('vis-first-render')[0]?.startTime ?? Number.NaN);
}

export default async function () {
  const home = mkdtempSync(join(tmpdir(), 'kimi-ts-bench-vis-'));
  const rows = [];
  try {
    const session = writeBigSession(home, STEPS);
    const { readSessionFolder } = await import(
      pathToFileURL(join(root, 'dist/ui/vis/model/read-session.js')).href
    );
    const started = performance.now();
    const loaded = await readSessionFolder(session.dir, session.id);
    const buildMs = performance.now() - started;
    rows.push({
      name: `model of ${STEPS} steps (${session.events} events, ${loaded.model.spans.length} bars)`,
      value: buildMs,
      unit: 'ms',
    });
    if (!existsSync(CHROMIUM_PATH)) return rows;

    const env = { ...process.env, KIMI_TS_HOME: home };
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
    // No session named: the server starts reading the newest while the browser asks for it.
    const vis = await startVis(env, '');
    try {
      const page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
      const cold = await firstRenderMs(page, `${vis.url}&session=${session.id}`);
      rows.push({
        name: `vis opens at once after start, ${STEPS} steps (session read meanwhile)`,
        value: cold,
        unit: 'ms',
        target: `≤ ${TARGET_MS} ms`,
        ok: cold <= TARGET_MS,
      });
      const warmPage = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
      const warm = await firstRenderMs(warmPage, vis.url);
      rows.push({
        name: `vis opens, ${STEPS} steps, warm`,
        value: warm,
        unit: 'ms',
        target: `≤ ${TARGET_MS} ms`,
        ok: warm <= TARGET_MS,
      });

      const file = join(home, 'export.html');
      await new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [launcher, 'vis', '--export', file, session.id], {
          env,
          stdio: 'ignore',
        });
        child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`export exited ${code}`))));
      });
      const exportPage = await (
        await browser.newContext({ viewport: { width: 1400, height: 900 } })
      ).newPage();
      const fromFile = await firstRenderMs(exportPage, pathToFileURL(file).href);
      rows.push({
        name: `exported HTML (${(statSync(file).size / 1e6).toFixed(1)} MB) opens from file://`,
        value: fromFile,
        unit: 'ms',
        target: `≤ ${TARGET_MS} ms`,
        ok: fromFile <= TARGET_MS,
      });
    } finally {
      vis.child.kill('SIGTERM');
      await browser.close();
    }
    return rows;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
