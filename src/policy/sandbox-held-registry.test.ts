import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { HeldNamesRegistry } from './sandbox-held-registry.js';

let root: string;
let folder: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'kimi-ts-held-names-')));
  folder = join(root, 'held-names');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

it("sees another live sandbox's holds (the path, a folder above it or one inside it), not its own", () => {
  const first = new HeldNamesRegistry(folder);
  const second = new HeldNamesRegistry(folder);
  first.record(['/w/.gitconfig', '/w/.kimi-ts']);
  second.record(['/w/tools']);
  expect(second.heldByOthers('/w/.gitconfig')).toBe(true);
  expect(second.heldByOthers('/w/.git')).toBe(false);
  expect(first.heldByOthers('/w/tools/hooks')).toBe(true);
  expect(first.heldByOthers('/w')).toBe(true);
  expect(first.heldByOthers('/w/.gitconfig')).toBe(false);
  // What it holds changes at a launch; disposed, it holds nothing.
  first.record(['/w/.kimi-ts']);
  expect(second.heldByOthers('/w/.gitconfig')).toBe(false);
  first.dispose();
  expect(second.heldByOthers('/w/.kimi-ts')).toBe(false);
});

it('ignores, and removes, the record of a process that is gone', async () => {
  const gone = spawnSync('true').pid;
  await mkdir(folder);
  await writeFile(join(folder, `${gone}-deadbeef`), '/w/.gitconfig');
  const registry = new HeldNamesRegistry(folder);
  expect(registry.heldByOthers('/w/.gitconfig')).toBe(false);
  expect(readdirSync(folder)).toEqual([]);
});

it('hands the placeholders left for another to the next one out, once', () => {
  const first = new HeldNamesRegistry(folder);
  first.leave(['/w/.gitconfig', '/w/.githooks']);
  first.dispose();
  const last = new HeldNamesRegistry(folder);
  expect(last.takeOrphans().sort()).toEqual(['/w/.gitconfig', '/w/.githooks']);
  expect(last.takeOrphans()).toEqual([]);
});

it('a home it cannot write to: nothing recorded, nothing thrown', async () => {
  // A file where its folder should be.
  await writeFile(join(root, 'cache'), '');
  const registry = new HeldNamesRegistry(join(root, 'cache', 'held-names'));
  registry.record(['/w/.gitconfig']);
  registry.leave(['/w/.gitconfig']);
  expect(registry.heldByOthers('/w/.gitconfig')).toBe(false);
  expect(registry.takeOrphans()).toEqual([]);
});
