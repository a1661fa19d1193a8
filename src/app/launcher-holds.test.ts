import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { launcherHolds } from './launcher-holds.js';

let root: string;
let work: string;

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'launcher-holds-')));
  work = join(root, 'work');
  mkdirSync(work);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const launch = (starter: string, command: string, cwd = work) => ({
  starter,
  words: command.split(' '),
  cwd,
});

it('holds the files a launcher reads that exist, and the package folder beside a module', async () => {
  writeFileSync(join(work, 'package.json'), '{"scripts":{"lint":"true"}}');
  writeFileSync(join(work, 'server.py'), '');
  const holds = await launcherHolds(
    [launch('the hook `npm run lint`', 'npm run lint'), launch('the MCP server py', 'python3 -m server')],
    root,
    [work],
  );
  // .npmrc does not exist: not held (a folder in its place would break npm), watched before a hook.
  expect(holds.byFile).toEqual([join(work, 'package.json'), join(work, 'server.py')]);
  expect(holds.folders).toEqual([join(work, 'server')]);
  expect(holds.notHeld).toEqual([expect.objectContaining({ starter: 'the MCP server py', tree: work })]);
  // Both lie in the workspace: read-only for commands there, said at start.
  expect(holds.heldInWorkspace).toEqual([
    { starter: 'the hook `npm run lint`', file: join(work, 'package.json') },
    { starter: 'the MCP server py', file: join(work, 'server.py') },
  ]);
});

it('does not say a held file outside the writable folders is read-only for commands', async () => {
  const elsewhere = join(root, 'elsewhere');
  mkdirSync(elsewhere);
  writeFileSync(join(elsewhere, 'package.json'), '{"scripts":{"mcp":"true"}}');
  const holds = await launcherHolds([launch('the MCP server js', 'npm run mcp', elsewhere)], root, [work]);
  expect(holds.byFile).toEqual([join(elsewhere, 'package.json')]);
  expect(holds.heldInWorkspace).toEqual([]);
});

it('gives a symlinked file to named-script-holds.ts, and holds the file it leads to', async () => {
  mkdirSync(join(work, 'shared'));
  writeFileSync(join(work, 'shared', 'Makefile'), '');
  symlinkSync('shared/Makefile', join(work, 'Makefile'));
  const holds = await launcherHolds([launch('the hook `make`', 'make')], root, [work]);
  expect(holds.byFile).toEqual([join(work, 'shared', 'Makefile')]);
  expect(holds.names).toEqual([{ path: join(work, 'Makefile'), interpreter: null }]);
});

it('says nothing of a tree outside the writable folders', async () => {
  const elsewhere = join(root, 'elsewhere');
  mkdirSync(elsewhere);
  expect(
    (await launcherHolds([launch('the MCP server rs', 'cargo run', elsewhere)], root, [work])).notHeld,
  ).toEqual([]);
  expect((await launcherHolds([launch('the MCP server rs', 'cargo run')], root, [work])).notHeld).toEqual([
    {
      starter: 'the MCP server rs',
      tree: work,
      why: "`cargo run` builds and runs the project's source (Cargo.toml, build.rs, src/)",
    },
  ]);
});

it('holds the working folder `python -m` imports from where it is not a writable folder itself', async () => {
  mkdirSync(join(work, 'mcp'));
  writeFileSync(join(work, 'mcp', 'server.py'), '');
  const holds = await launcherHolds(
    [launch('the MCP server py', 'python3 -m server', join(work, 'mcp'))],
    root,
    [work],
  );
  expect(holds.folders).toEqual([join(work, 'mcp', 'server'), join(work, 'mcp')]);
  expect(holds.notHeld).toEqual([]);
});
