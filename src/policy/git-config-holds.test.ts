import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { GitConfigHolds, heldInRoots, heldPlaceholders } from './git-config-holds.js';

let root: string;
let work: string;
let home: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'kimi-ts-git-config-holds-')));
  work = join(root, 'work');
  home = join(root, 'home');
  await mkdir(work);
  await mkdir(home);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, env: { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1' } });
const env = { GIT_CONFIG_NOSYSTEM: '1' };

it('holds the hooks folder (relative to the work tree) and the included files of the repository', async () => {
  git(work, 'init', '-q');
  git(work, 'config', 'core.hooksPath', '.husky');
  git(work, 'config', 'include.path', '../.gitconfig');
  // Started from a folder below the top: the repository above it is found, paths from its top.
  await mkdir(join(work, 'packages', 'a'), { recursive: true });
  const holds = new GitConfigHolds(() => [join(work, 'packages', 'a')], { home, env });
  expect(holds.current()).toEqual({ files: [join(work, '.gitconfig')], folders: [join(work, '.husky')] });
  expect(holds.reason(join(work, '.husky', 'pre-commit'))).toMatch(/hooksPath/);
  expect(holds.reason(join(work, '.gitconfig'))).toMatch(/includes/);
  expect(holds.reason(join(work, 'src', 'index.ts'))).toBeNull();
  expect(holds.reason(join(work, '.husky-not'))).toBeNull();
});

it('reads the config again when it changes (an include added later, through a file it includes)', async () => {
  git(work, 'init', '-q');
  const holds = new GitConfigHolds(() => [work], { home, env });
  expect(holds.current()).toEqual({ files: [], folders: [] });
  git(work, 'config', 'include.path', '../shared.inc');
  expect(holds.current().files).toEqual([join(work, 'shared.inc')]);
  // The included file is read again when it changes too.
  await writeFile(join(work, 'shared.inc'), '[core]\n\thooksPath = tools/hooks\n');
  expect(holds.current().folders).toEqual([join(work, 'tools', 'hooks')]);
});

it("holds what the person's global config names, for every work tree; a linked worktree's common config", async () => {
  const global = join(home, 'global.gitconfig');
  await writeFile(global, '[core]\n\thooksPath = .githooks\n[include]\n\tpath = ~/more.inc\n');
  git(work, 'init', '-q');
  git(work, 'config', 'user.email', 'p@p');
  git(work, 'config', 'user.name', 'p');
  git(work, 'commit', '-q', '--allow-empty', '-m', 'x');
  git(work, 'config', 'include.path', '../from-common.inc');
  const linked = join(root, 'linked');
  git(work, 'worktree', 'add', '-q', linked);
  const holds = new GitConfigHolds(() => [linked], { home, env: { ...env, GIT_CONFIG_GLOBAL: global } });
  const held = holds.current();
  expect(held.folders).toEqual([join(linked, '.githooks')]);
  // The common config's include is relative to the common folder (work/.git), as git reads it.
  expect([...held.files].sort()).toEqual([join(home, 'more.inc'), join(work, 'from-common.inc')].sort());
  // Only those inside the writable folders are bound; a missing one gets a placeholder.
  expect(heldInRoots(held, [linked])).toEqual({ files: [], folders: [join(linked, '.githooks')] });
  expect(heldPlaceholders(held, [linked])).toEqual({ folders: [join(linked, '.githooks')], files: [] });
});

it('makes placeholders: the missing file itself, or the first missing folder on its way; a symlink held where it leads', async () => {
  await mkdir(join(work, 'real-hooks'));
  await symlink('real-hooks', join(work, '.husky'));
  const held = {
    files: [join(work, '.gitconfig'), join(work, 'config', 'git', 'shared.inc'), join(root, 'outside.inc')],
    folders: [join(work, 'tools', 'hooks'), join(work, '.husky')],
  };
  expect(heldPlaceholders(held, [work])).toEqual({
    files: [join(work, '.gitconfig')],
    folders: [join(work, 'config'), join(work, 'tools')],
  });
  git(work, 'init', '-q');
  git(work, 'config', 'core.hooksPath', '.husky');
  const holds = new GitConfigHolds(() => [work], { home, env });
  expect(holds.current().folders).toEqual([join(work, '.husky'), join(work, 'real-hooks')]);
  expect(holds.reason(join(work, 'real-hooks', 'pre-commit'))).not.toBeNull();
});

it("holds husky 9's folder above its `_` hooks folder: the hooks there run the scripts beside it", async () => {
  git(work, 'init', '-q');
  git(work, 'config', 'core.hooksPath', '.husky/_');
  const holds = new GitConfigHolds(() => [work], { home, env });
  expect(holds.current().folders).toEqual([join(work, '.husky', '_'), join(work, '.husky')]);
  expect(holds.reason(join(work, '.husky', 'pre-commit'))).not.toBeNull();
});

it('a hooks folder that holds the whole workspace (core.hooksPath = .): only its hooks, by name', async () => {
  git(work, 'init', '-q');
  git(work, 'config', 'core.hooksPath', '.');
  const holds = new GitConfigHolds(() => [work], { home, env });
  expect(holds.reason(join(work, 'pre-commit'))).not.toBeNull();
  expect(holds.reason(join(work, 'src', 'pre-commit'))).toBeNull();
  expect(holds.reason(join(work, 'README.md'))).toBeNull();
  // The sandbox binds none of it (the workspace itself cannot be read-only).
  expect(heldInRoots(holds.current(), [work]).folders).toEqual([]);
});

// Issue #24 (holes4): a repository nested in the workspace (a subproject with husky, found by the
// sandbox's nested-git walk) runs its hooks from the folder its own config names, when the person
// uses git there: held as the top repository's are.
it("holds what a nested repository's config names: told by the sandbox's walk, or found above a write", async () => {
  git(work, 'init', '-q');
  const sub = join(work, 'packages', 'sub');
  await mkdir(sub, { recursive: true });
  git(sub, 'init', '-q');
  git(sub, 'config', 'core.hooksPath', '.husky');
  git(sub, 'config', 'include.path', '../shared.inc');
  await mkdir(join(sub, '.husky'));
  // Found above a write (the file tools ask before any command ran): its own folders.
  const byWrite = new GitConfigHolds(() => [work], { home, env });
  expect(byWrite.reason(join(sub, '.husky', 'pre-commit'))).toMatch(/hooksPath/);
  expect(byWrite.reason(join(sub, 'shared.inc'))).toMatch(/includes/);
  expect(byWrite.reason(join(sub, 'src', 'index.ts'))).toBeNull();
  // Told by the walk (the sandbox's binds): held before any write names them.
  const byWalk = new GitConfigHolds(() => [work], { home, env });
  expect(byWalk.current({ nestedWorkTrees: [sub] })).toEqual({
    files: [join(sub, 'shared.inc')],
    folders: [join(sub, '.husky')],
  });
  // Kept for later readings; a work tree outside the writable roots is not read.
  expect(byWalk.current().folders).toEqual([join(sub, '.husky')]);
  const outside = join(root, 'elsewhere');
  await mkdir(outside);
  git(outside, 'init', '-q');
  git(outside, 'config', 'core.hooksPath', 'hooks');
  expect(byWalk.current({ nestedWorkTrees: [outside] }).folders).toEqual([join(sub, '.husky')]);
  // Its config changed: read again.
  git(sub, 'config', 'core.hooksPath', 'tools/hooks');
  expect(byWalk.current().folders).toEqual([join(sub, 'tools', 'hooks')]);
});

it("is one reading for a launch's two asks with the same list, and read again after that stretch", async () => {
  git(work, 'init', '-q');
  const holds = new GitConfigHolds(() => [work], { home, env });
  const launch: string[] = [];
  expect(holds.current({ nestedWorkTrees: launch }).folders).toEqual([]);
  // Changed between the two asks of one synchronous stretch (as no launch does): the first reading.
  git(work, 'config', 'core.hooksPath', '.husky');
  expect(holds.current({ nestedWorkTrees: launch }).folders).toEqual([]);
  // Another list (the next launch), or no list (a write's question): read again.
  expect(holds.current({ nestedWorkTrees: [] }).folders).toEqual([join(work, '.husky')]);
  git(work, 'config', 'core.hooksPath', 'hooks');
  expect(holds.current().folders).toEqual([join(work, 'hooks')]);
  // The same list once the stretch is over: read again.
  const next: string[] = [];
  expect(holds.current({ nestedWorkTrees: next }).folders).toEqual([join(work, 'hooks')]);
  git(work, 'config', 'core.hooksPath', 'tools/hooks');
  await Promise.resolve();
  expect(holds.current({ nestedWorkTrees: next }).folders).toEqual([join(work, 'tools', 'hooks')]);
});
