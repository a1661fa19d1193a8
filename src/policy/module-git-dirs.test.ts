import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { moduleGitDirs } from './module-git-dirs.js';

const root = mkdtempSync(join(tmpdir(), 'kimi-ts-modules-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function gitDirAt(path: string): void {
  mkdirSync(path, { recursive: true });
  writeFileSync(join(path, 'HEAD'), 'ref: refs/heads/main\n');
}

it("finds submodules' git folders: names with slashes, and submodules of submodules; follows no symlink", () => {
  const git = join(root, '.git');
  gitDirAt(git);
  gitDirAt(join(git, 'modules', 'plain'));
  gitDirAt(join(git, 'modules', 'lib', 'a'));
  gitDirAt(join(git, 'modules', 'plain', 'modules', 'inner'));
  const elsewhere = join(root, 'elsewhere');
  gitDirAt(join(elsewhere, 'x'));
  symlinkSync(elsewhere, join(git, 'modules', 'linked'));
  expect(moduleGitDirs(git).sort()).toEqual(
    [
      join(git, 'modules', 'lib', 'a'),
      join(git, 'modules', 'plain'),
      join(git, 'modules', 'plain', 'modules', 'inner'),
    ].sort(),
  );
});

it('none in a git folder without modules', () => {
  const bare = join(root, 'bare.git');
  gitDirAt(bare);
  expect(moduleGitDirs(bare)).toEqual([]);
});
