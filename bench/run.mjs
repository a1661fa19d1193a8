// Runs every bench/*.bench.mjs against the built package (dist/) and prints one table.
// Each bench module default-exports an async function returning rows:
//   { name, value, unit, baseline?: number (same unit, a bare loop doing the same work), target?: string }
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv[2];
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.mjs') && (!only || f.includes(only)))
  .sort();

const rows = [];
for (const file of files) {
  const mod = await import(pathToFileURL(join(here, file)).href);
  for (const row of await mod.default()) rows.push({ suite: file.replace('.bench.mjs', ''), ...row });
}

const fmt = (n) =>
  typeof n !== 'number' ? '' : n >= 100 ? n.toFixed(0) : n >= 1 ? n.toFixed(2) : n.toPrecision(3);
const table = rows.map((r) => ({
  suite: r.suite,
  benchmark: r.name,
  value: `${fmt(r.value)} ${r.unit}`,
  'vs bare loop': r.ratio !== undefined ? `${fmt(r.ratio)}×` : '',
  target: r.target ?? '',
  ok: r.ok === undefined ? '' : r.ok ? 'yes' : 'NO',
}));
const cols = Object.keys(table[0] ?? { suite: '' });
const width = Object.fromEntries(
  cols.map((c) => [c, Math.max(c.length, ...table.map((r) => String(r[c]).length))]),
);
const line = (r) => `| ${cols.map((c) => String(r[c]).padEnd(width[c])).join(' | ')} |`;
console.log(line(Object.fromEntries(cols.map((c) => [c, c]))));
console.log(`|${cols.map((c) => '-'.repeat(width[c] + 2)).join('|')}|`);
for (const r of table) console.log(line(r));
