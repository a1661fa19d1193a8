import { existsSync, lstatSync, readlinkSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { KeptNamesGuard } from './sandbox-kept-names.js';

let work: string;
beforeEach(async () => {
  work = await realpath(await mkdtemp(join(tmpdir(), 'kimi-ts-kept-names-')));
});
afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

it('puts back a link a command replaced with a folder of its own, and says so', async () => {
  await symlink('/shared-rules', join(work, '.kimi-ts'));
  const guard = new KeptNamesGuard();
  guard.adopt([join(work, '.kimi-ts')]);
  expect(guard.check()).toBeNull();
  await rm(join(work, '.kimi-ts'));
  await mkdir(join(work, '.kimi-ts'));
  await writeFile(join(work, '.kimi-ts', 'permissions.toml'), 'x');
  expect(guard.check()).toContain(`put back ${join(work, '.kimi-ts')} -> /shared-rules`);
  expect(readlinkSync(join(work, '.kimi-ts'))).toBe('/shared-rules');
  expect(guard.check()).toBeNull();
});

it('puts back a link re-pointed elsewhere, and one removed', async () => {
  await mkdir(join(work, 'v1'));
  await symlink('v1', join(work, 'current'));
  const guard = new KeptNamesGuard();
  guard.adopt([join(work, 'current')]);
  await rm(join(work, 'current'));
  await symlink('v2', join(work, 'current'));
  expect(guard.check()).not.toBeNull();
  expect(readlinkSync(join(work, 'current'))).toBe('v1');
  await rm(join(work, 'current'));
  expect(guard.check()).not.toBeNull();
  expect(readlinkSync(join(work, 'current'))).toBe('v1');
});

it('removes a name that did not exist when first seen (a bin npx would run), whatever a command made there', async () => {
  const bin = join(work, 'node_modules', '.bin', 'kimi-ts');
  const guard = new KeptNamesGuard();
  guard.adopt([bin]);
  await mkdir(join(work, 'node_modules', '.bin'), { recursive: true });
  await symlink('../evil/cli.js', bin);
  expect(guard.check()).toContain(`removed ${bin}`);
  expect(lstatSync(bin, { throwIfNoEntry: false })).toBeUndefined();
  // The folders on the way are the command's to keep (npm install makes them).
  expect(existsSync(join(work, 'node_modules', '.bin'))).toBe(true);
});

it('leaves alone a name that was a plain file when first seen, and one adopted later keeps its first state', async () => {
  await writeFile(join(work, '.npmrc'), 'fund=false\n');
  const guard = new KeptNamesGuard();
  guard.adopt([join(work, '.npmrc')]);
  await writeFile(join(work, '.npmrc'), 'changed\n');
  expect(guard.check()).toBeNull();
  const bin = join(work, 'node');
  guard.adopt([bin]);
  await writeFile(bin, '#!/bin/sh\n');
  // Adopted again (each launch): still the state first seen.
  guard.adopt([bin]);
  expect(guard.check()).toContain(`removed ${bin}`);
});

it('adopted anew (no command running), a name the person made since is theirs; otherwise the first state holds', async () => {
  const npmrc = join(work, '.npmrc');
  const guard = new KeptNamesGuard();
  guard.adopt([npmrc], true);
  await writeFile(npmrc, 'save-exact=true\n');
  // Made while a command ran (adopted again, not anew): removed.
  guard.adopt([npmrc]);
  expect(guard.check()).toContain(`removed ${npmrc}`);
  // Made by the person between commands: adopted anew before the next one, left alone.
  await writeFile(npmrc, 'save-exact=true\n');
  guard.adopt([npmrc], true);
  expect(guard.check()).toBeNull();
  expect(existsSync(npmrc)).toBe(true);
});
