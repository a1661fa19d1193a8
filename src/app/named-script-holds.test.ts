import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { namedScriptHolds } from './named-script-holds.js';

/** A script `sh` runs. */
const sh = (path: string) => ({ path, interpreter: 'sh' });

let root: string;
let work: string;

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'named-script-holds-')));
  work = join(root, 'work');
  mkdirSync(join(work, 'mcp'), { recursive: true });
  mkdirSync(join(work, 'shared'));
  writeFileSync(join(work, 'shared', 'server.sh'), 'exit 0\n');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

it('holds nothing more for a plain file, or for a name outside the writable folders', () => {
  writeFileSync(join(work, 'mcp', 'server.sh'), 'exit 0\n');
  const outside = join(root, 'elsewhere', 'missing.sh');
  expect(namedScriptHolds([sh(join(work, 'mcp', 'server.sh')), sh(outside)], [work])).toEqual({
    byFolder: [],
    madeWhenMissing: [],
    linksNotHeld: [],
  });
});

it("holds a symlink's folder, and a missing script's folder", () => {
  symlinkSync('../shared/server.sh', join(work, 'mcp', 'server.sh'));
  expect(namedScriptHolds([sh(join(work, 'mcp', 'server.sh'))], [work]).byFolder).toEqual([
    join(work, 'mcp', 'server.sh'),
  ]);
  expect(namedScriptHolds([sh(join(work, 'mcp', 'other.sh'))], [work]).byFolder).toEqual([
    join(work, 'mcp', 'other.sh'),
  ]);
});

it('holds the folder above a symlinked folder on the way, and a file through it', () => {
  mkdirSync(join(work, 'tools'));
  symlinkSync('../shared', join(work, 'tools', 'linked'));
  // tools/linked/server.sh is a plain file, but `linked` could be replaced: `tools` is held.
  expect(namedScriptHolds([sh(join(work, 'tools', 'linked', 'server.sh'))], [work]).byFolder).toEqual([
    join(work, 'tools', 'linked'),
  ]);
});

it('makes the first missing folder below the root, and leaves a symlink at the top unheld', () => {
  expect(namedScriptHolds([sh(join(work, 'scripts', 'hooks', 'start.sh'))], [work])).toEqual({
    byFolder: [],
    madeWhenMissing: [join(work, 'scripts')],
    linksNotHeld: [],
  });
  symlinkSync('shared', join(work, 'linked'));
  symlinkSync(join('shared', 'server.sh'), join(work, 'top.sh'));
  const throughLink = join(work, 'linked', 'server.sh');
  expect(namedScriptHolds([sh(throughLink), sh(join(work, 'top.sh'))], [work])).toEqual({
    byFolder: [],
    madeWhenMissing: [],
    linksNotHeld: [
      { path: throughLink, link: join(work, 'linked') },
      { path: join(work, 'top.sh'), link: join(work, 'top.sh') },
    ],
  });
});

it('reads the roots as real paths (a work dir given through a symlink)', () => {
  const alias = join(root, 'alias');
  symlinkSync(work, alias);
  expect(namedScriptHolds([sh(join(alias, 'mcp', 'missing.sh'))], [work]).byFolder).toEqual([
    join(work, 'mcp', 'missing.sh'),
  ]);
});

it("holds a Python script's folder (Python imports from it first), not a shell script's", () => {
  mkdirSync(join(work, 'scripts'));
  writeFileSync(join(work, 'scripts', 'check.py'), 'print(1)\n');
  writeFileSync(join(work, 'top.py'), 'print(1)\n');
  const python = (path: string) => ({ path, interpreter: 'python3' });
  expect(
    namedScriptHolds([python(join(work, 'scripts', 'check.py')), python(join(work, 'top.py'))], [work]),
  ).toEqual({
    byFolder: [join(work, 'scripts', 'check.py'), join(work, 'top.py')],
    madeWhenMissing: [],
    linksNotHeld: [],
  });
  expect(namedScriptHolds([sh(join(work, 'shared', 'server.sh'))], [work]).byFolder).toEqual([]);
});
