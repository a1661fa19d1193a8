#!/usr/bin/env node
// The import rules of ARCHITECTURE.md, checked over src/ (.ts and .tsx; tests and test-support
// excluded): floors point down only, folders of one floor do not import each other, tools never
// import the wire, the app never imports a front end, nothing imports src/cli/, kosong imports
// nothing of ours, front ends do not import each other (what they share lives in ui/common/ or
// ui/http/), and no source file is part of an import cycle. Also: no source file over 400 lines.
// Exits 1 with one line per violation; there is no list of exceptions.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const src = join(root, 'src');
const MAX_LINES = 400;

/** The floor of each top-level folder of src/ (ARCHITECTURE.md, "Floors"). */
const FLOORS = {
  kosong: 1,
  util: 1,
  wire: 2,
  hooks: 2,
  policy: 3,
  toolset: 4,
  config: 4,
  tools: 5,
  mcp: 5,
  soul: 6,
  session: 6,
  auth: 6,
  app: 7,
  // The fleet runs sessions' turns through the app (above it); front ends may follow its streams.
  fleet: 7.5,
  ui: 8,
  cli: 9,
};
/** Folders and files outside the floors: assets, the launcher, the library entry, the version. */
const UNFLOORED = new Set(['agents', 'bin', 'index.ts', 'version.ts']);
/** The folders of src/ui/ that are not front ends: what the front ends share (ARCHITECTURE.md). */
const UI_SHARED = new Set(['common', 'http']);

function isTestFile(path) {
  return /\.test\.tsx?$/.test(path) || path.split(sep).includes('test-support');
}

function sourceFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(c|m)?tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') && !isTestFile(path))
      out.push(path);
  }
  return out;
}

/** Removes comments (keeping strings intact) so commented-out imports do not count. */
function stripComments(text) {
  let out = '';
  let i = 0;
  let quote = null;
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    if (quote) {
      out += c;
      if (c === '\\') {
        out += next ?? '';
        i += 2;
        continue;
      }
      if (c === quote) quote = null;
      i++;
      continue;
    }
    if (c === '/' && next === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 2;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') quote = c;
    out += c;
    i++;
  }
  return out;
}

const IMPORT_PATTERNS = [
  /\b(?:import|export)\s+(?:type\s+)?[^'";]*?\bfrom\s*['"]([^'"]+)['"]/g,
  /\bimport\s*['"]([^'"]+)['"]/g,
  /\bimport\(\s*['"]([^'"]+)['"]\s*[,)]/g,
  /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)\s*\./g,
];

function importsOf(file) {
  const text = stripComments(readFileSync(file, 'utf8'));
  const specifiers = new Set();
  for (const pattern of IMPORT_PATTERNS) for (const m of text.matchAll(pattern)) specifiers.add(m[1]);
  // `import('../x.js').Type` in type positions is an import too.
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) specifiers.add(m[1]);
  return [...specifiers].filter((s) => s.startsWith('.')).map((s) => resolveSpecifier(file, s));
}

function resolveSpecifier(file, specifier) {
  const target = resolve(dirname(file), specifier);
  const asTs = target.replace(/\.(c|m)?js$/, (ext) => ext.replace('js', 'ts'));
  // A `.js` specifier names a `.ts` or a `.tsx` source.
  if (asTs !== target && !existsSync(asTs) && existsSync(`${asTs}x`)) return `${asTs}x`;
  return asTs;
}

function topFolder(file) {
  const rel = relative(src, file);
  if (rel.startsWith('..')) return null;
  return rel.split(sep)[0];
}

/** The folder under src/ui/ a file lives in (a front end, or common/ or http/), or null. */
function uiFolder(file) {
  const parts = relative(src, file).split(sep);
  return parts[0] === 'ui' && parts.length > 2 ? parts[1] : null;
}

/** Front ends do not import each other; ui/common/ and ui/http/ import no front end. */
function uiProblem(file, target) {
  const from = uiFolder(file);
  const to = uiFolder(target);
  if (to === null || from === to || UI_SHARED.has(to)) return null;
  if (from === null) return `ui/${to}/ is a front end: only src/cli/ imports it`;
  if (UI_SHARED.has(from)) return `ui/${from}/ is shared by the front ends and imports none of them`;
  return `front ends do not import each other (what two share lives in ui/common/ or ui/http/)`;
}

const files = sourceFiles(src);
const problems = [];
const graph = new Map();

for (const file of files) {
  const rel = relative(root, file);
  const lines = readFileSync(file, 'utf8').split('\n').length;
  if (lines > MAX_LINES) problems.push(`${rel}: ${lines} lines (at most ${MAX_LINES})`);
  const from = topFolder(file);
  const imports = importsOf(file);
  graph.set(
    file,
    imports.filter((target) => files.includes(target)),
  );
  for (const target of imports) {
    const to = topFolder(target);
    if (to === null) continue;
    const targetRel = relative(root, target);
    if (isTestFile(target)) {
      problems.push(`${rel} imports test code ${targetRel}`);
      continue;
    }
    if (to === 'cli' && from !== 'cli' && from !== 'bin')
      problems.push(`${rel} imports ${targetRel}: nothing imports src/cli/`);
    if (from === 'ui' && to === 'ui') {
      const problem = uiProblem(file, target);
      if (problem) problems.push(`${rel} imports ${targetRel}: ${problem}`);
      continue;
    }
    if (UNFLOORED.has(from) || UNFLOORED.has(to) || from === to) continue;
    const fromFloor = FLOORS[from];
    const toFloor = FLOORS[to];
    if (fromFloor === undefined) {
      problems.push(
        `${rel}: src/${from}/ has no floor in ARCHITECTURE.md (add it to scripts/check-layers.mjs)`,
      );
      continue;
    }
    if (toFloor === undefined) continue;
    if (from === 'kosong') problems.push(`${rel} imports ${targetRel}: kosong imports nothing of ours`);
    else if (from === 'tools' && to === 'wire')
      problems.push(`${rel} imports ${targetRel}: tools never import the wire`);
    else if (from === 'app' && to === 'ui')
      problems.push(`${rel} imports ${targetRel}: the app never imports a front end`);
    else if (toFloor === fromFloor)
      problems.push(
        `${rel} (floor ${fromFloor}, ${from}) imports ${targetRel} (floor ${toFloor}, ${to}): folders of one floor do not import each other`,
      );
    else if (toFloor > fromFloor)
      problems.push(
        `${rel} (floor ${fromFloor}, ${from}) imports ${targetRel} (floor ${toFloor}, ${to}): imports point down`,
      );
  }
}

// Import cycles among source files (type-only imports included: a cycle of types is still a knot).
const state = new Map();
const stack = [];
const cycles = new Set();
function visit(file) {
  state.set(file, 'open');
  stack.push(file);
  for (const next of graph.get(file) ?? []) {
    const s = state.get(next);
    if (s === 'open') {
      const cycle = stack.slice(stack.indexOf(next)).map((f) => relative(root, f));
      const start = cycle.indexOf([...cycle].sort()[0]);
      cycles.add([...cycle.slice(start), ...cycle.slice(0, start)].join(' → '));
    } else if (s === undefined) visit(next);
  }
  stack.pop();
  state.set(file, 'done');
}
for (const file of files) if (!state.has(file)) visit(file);
for (const cycle of cycles) problems.push(`import cycle: ${cycle}`);

if (problems.length) {
  for (const p of problems) process.stderr.write(`${p}\n`);
  process.stderr.write(`check:layers: ${problems.length} problem(s)\n`);
  process.exit(1);
}
process.stdout.write(`check:layers: ${files.length} source files, imports point down, no cycles\n`);
