import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { rulesFolderHold, TrustedRulesHolds } from './trusted-rules-holds.js';

let root: string;
let work: string;
let record: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'kimi-ts-trusted-holds-')));
  work = join(root, 'work');
  record = join(root, 'trusted-folders.json');
  await mkdir(work);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const writeRecord = (folders: string[]) =>
  writeFile(record, `${JSON.stringify({ version: 1, folders, declined: [] })}\n`);

it.each([
  ['the rules folder, existing', ['pkg/.kimi-ts'], 'pkg/.kimi-ts', { kind: 'held', path: 'pkg/.kimi-ts' }],
  ['the rules folder, missing', ['pkg'], 'pkg/.kimi-ts', { kind: 'held', path: 'pkg/.kimi-ts' }],
  ['the first missing folder on the way', [], 'a/b/.kimi-ts', { kind: 'held', path: 'a' }],
  ['a missing folder below a plain one', ['a'], 'a/b/.kimi-ts', { kind: 'held', path: 'a/b' }],
])('holds %s', async (_what, folders, rules, expected) => {
  for (const folder of folders) await mkdir(join(work, folder), { recursive: true });
  expect(rulesFolderHold(join(work, rules), work)).toEqual({ ...expected, path: join(work, expected.path) });
});

it('holds the folder holding a link on the way, and keeps a link at the top of the root', async () => {
  await mkdir(join(work, 'sub', 'v1'), { recursive: true });
  await symlink('v1', join(work, 'sub', 'current'));
  expect(rulesFolderHold(join(work, 'sub', 'current', '.kimi-ts'), work)).toEqual({
    kind: 'held',
    path: join(work, 'sub'),
  });
  await symlink('sub/v1', join(work, 'current'));
  expect(rulesFolderHold(join(work, 'current', '.kimi-ts'), work)).toEqual({
    kind: 'link',
    path: join(work, 'current'),
  });
});

it('holds the trusted folders inside the roots, as named and where they lead, and re-reads the record when it changes', async () => {
  await mkdir(join(work, 'v1'));
  await symlink('v1', join(work, 'current'));
  const holds = new TrustedRulesHolds(record, [join(work, 'current'), join(root, 'elsewhere')], () => [work]);
  expect(holds.current()).toEqual({
    held: [join(work, 'v1', '.kimi-ts')],
    keptLinks: [join(work, 'current')],
  });
  // Trusted by another session meanwhile: held from the next call on.
  await writeRecord([join(work, 'pkg')]);
  expect([...holds.current().held].sort()).toEqual([join(work, 'pkg'), join(work, 'v1', '.kimi-ts')]);
  await writeRecord([]);
  expect(holds.current().held).toEqual([join(work, 'v1', '.kimi-ts')]);
});

it("holds where the links in a root's rules folder lead inside the workspace, and a linked rules folder itself", async () => {
  await mkdir(join(work, 'config'));
  await mkdir(join(work, '.kimi-ts'));
  await writeFile(join(work, 'config', 'kimi-rules.toml'), '');
  await symlink('../config/kimi-rules.toml', join(work, '.kimi-ts', 'permissions.toml'));
  await symlink(join(root, 'outside.toml'), join(work, '.kimi-ts', 'other.toml'));
  const holds = new TrustedRulesHolds(record, [], () => [work]);
  // The root's own `.kimi-ts` is the sandbox's (ensureProtected): not named again.
  expect(holds.current()).toEqual({ held: [join(work, 'config', 'kimi-rules.toml')], keptLinks: [] });
  await rm(join(work, '.kimi-ts'), { recursive: true });
  await symlink(join(root, 'shared'), join(work, '.kimi-ts'));
  expect(holds.current()).toEqual({ held: [], keptLinks: [join(work, '.kimi-ts')] });
});

it("sees a link added to a rules folder's sub-folder after a first reading (the walk is read again when a folder changes)", async () => {
  await mkdir(join(work, '.kimi-ts', 'skills'), { recursive: true });
  await writeFile(join(work, 'tool.md'), '');
  const holds = new TrustedRulesHolds(record, [], () => [work]);
  expect(holds.current().held).toEqual([]);
  await symlink('../../tool.md', join(work, '.kimi-ts', 'skills', 'tool.md'));
  expect(holds.current().held).toEqual([join(work, 'tool.md')]);
});
