import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { makesGitFolder, ProtectedFiles } from './protected-files.js';
import { RecentWrites } from './recent-writes.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'kimi-ts-git-folder-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

it('a write that completes a git folder of any name (HEAD, objects/, refs/) is one; others are not', () => {
  const fixture = join(root, 'fixture');
  mkdirSync(join(fixture, 'objects'), { recursive: true });
  mkdirSync(join(fixture, 'refs'));
  // No HEAD yet: writing it, or the config once it is there, makes a repository.
  expect(makesGitFolder(join(fixture, 'HEAD'))).toBe(true);
  expect(makesGitFolder(join(fixture, 'config'))).toBe(false);
  writeFileSync(join(fixture, 'HEAD'), 'ref: refs/heads/main\n');
  expect(makesGitFolder(join(fixture, 'config'))).toBe(true);
  expect(makesGitFolder(join(fixture, 'hooks', 'pre-commit'))).toBe(true);
  expect(makesGitFolder(join(fixture, 'refs', 'heads', 'main'))).toBe(true);
  // HEAD and refs/, no objects/: writing into objects/ completes it.
  const partial = join(root, 'partial');
  mkdirSync(join(partial, 'refs'), { recursive: true });
  writeFileSync(join(partial, 'HEAD'), 'ref: refs/heads/main\n');
  expect(makesGitFolder(join(partial, 'notes.txt'))).toBe(false);
  expect(makesGitFolder(join(partial, 'objects', 'ab', 'cdef'))).toBe(true);
  // Ordinary files, and a file named HEAD in an ordinary folder.
  mkdirSync(join(root, 'src'));
  expect(makesGitFolder(join(root, 'src', 'index.ts'))).toBe(false);
  expect(makesGitFolder(join(root, 'src', 'HEAD'))).toBe(false);
});

it('a git folder through commondir: a commondir file is git metadata, and so is a write beside HEAD and one', () => {
  const shared = join(root, 'shared');
  mkdirSync(join(shared, 'objects'), { recursive: true });
  mkdirSync(join(shared, 'refs'));
  const fixture = join(root, 'linked-fixture');
  mkdirSync(fixture);
  // `commondir` by its name alone (another call of the step may be writing HEAD right now).
  expect(makesGitFolder(join(fixture, 'commondir'))).toBe(true);
  expect(makesGitFolder(join(fixture, 'config.worktree'))).toBe(false);
  writeFileSync(join(fixture, 'commondir'), '../shared\n');
  expect(makesGitFolder(join(fixture, 'HEAD'))).toBe(true);
  writeFileSync(join(fixture, 'HEAD'), 'ref: refs/heads/main\n');
  expect(makesGitFolder(join(fixture, 'config.worktree'))).toBe(true);
  expect(makesGitFolder(join(fixture, 'gitdir'))).toBe(true);
  // The common folder itself has no HEAD: its config is an ordinary file until a git folder names it.
  expect(makesGitFolder(join(shared, 'config'))).toBe(false);
});

it('objects and refs through symlinks, or objects an executable file, count as git counts them', () => {
  const store = join(root, 'link-store');
  mkdirSync(join(store, 'objects'), { recursive: true });
  mkdirSync(join(store, 'refs'));
  const linked = join(root, 'linked-parts');
  mkdirSync(linked);
  symlinkSync('../link-store/objects', join(linked, 'objects'));
  symlinkSync('../link-store/refs', join(linked, 'refs'));
  expect(makesGitFolder(join(linked, 'HEAD'))).toBe(true);
  const exec = join(root, 'exec-objects');
  mkdirSync(exec);
  writeFileSync(join(exec, 'objects'), '', { mode: 0o755 });
  symlinkSync('../link-store/refs', join(exec, 'refs'));
  expect(makesGitFolder(join(exec, 'HEAD'))).toBe(true);
  // A plain (not executable) file named objects fails git's access(X_OK).
  const plain = join(root, 'plain-objects');
  mkdirSync(plain);
  writeFileSync(join(plain, 'objects'), '', { mode: 0o644 });
  symlinkSync('../link-store/refs', join(plain, 'refs'));
  expect(makesGitFolder(join(plain, 'HEAD'))).toBe(false);
});

it("counts the step's writes let through as there, whatever order its concurrent calls run in", () => {
  const fixture = join(root, 'concurrent');
  mkdirSync(fixture);
  const recent = new RecentWrites();
  // objects/ and refs/ are written by other calls of the step, not yet done when HEAD is decided.
  recent.add(join(fixture, 'objects', 'info', 'packs'));
  recent.add(join(fixture, 'refs', 'heads', 'main'));
  expect(makesGitFolder(join(fixture, 'HEAD'))).toBe(false);
  expect(makesGitFolder(join(fixture, 'HEAD'), recent)).toBe(true);
  // And HEAD let through first: the write into refs/ that completes it is the one refused.
  const other = join(root, 'concurrent-2');
  mkdirSync(join(other, 'objects'), { recursive: true });
  const first = new RecentWrites();
  first.add(join(other, 'HEAD'));
  expect(makesGitFolder(join(other, 'refs', 'heads', 'main'), first)).toBe(true);
  expect(makesGitFolder(join(other, 'refs', 'heads', 'main'))).toBe(false);
});

it('ProtectedFiles remembers what it let through: the call completing a git folder is refused', () => {
  const fixture = join(root, 'remembered');
  mkdirSync(fixture);
  const files = ProtectedFiles.none();
  const target = (path: string) => ({ real: join(fixture, path), absolute: join(fixture, path) });
  expect(files.reason(target('objects/.keep'))).toBeNull();
  expect(files.reason(target('refs/.keep'))).toBeNull();
  expect(files.reason(target('HEAD'))).toMatch(/git repository's metadata/);
});
