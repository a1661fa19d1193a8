import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { makesGitFolder } from './protected-files.js';

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
