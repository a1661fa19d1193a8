import { type Dirent, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The git folders of submodules kept inside a git folder: `modules/<name>` (a name may have slashes:
 * `modules/lib/a`), and theirs in turn (`modules/a/modules/b`). `git submodule update` takes such a
 * folder again when the submodule's working tree is made anew, and runs its hooks and config there,
 * so one a command planted must be cleaned like any other git folder. Nothing is followed through a
 * symlink. No cap: a command that makes many folders here makes its own checks slow, and a cap is
 * what it would fill to hide one.
 */
export function moduleGitDirs(gitDir: string): string[] {
  const found: string[] = [];
  const queue = [join(gitDir, 'modules')];
  for (let i = 0; i < queue.length; i++) {
    const folder = queue[i] as string;
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      continue; // none (the usual case: one failed read), or not a folder
    }
    for (const entry of entries) {
      if (!entry.isDirectory()) continue;
      const path = join(folder, entry.name);
      if (isGitDir(path)) {
        found.push(path);
        queue.push(join(path, 'modules'));
      } else queue.push(path); // a part of a name with slashes
    }
  }
  return found;
}

/** Shaped like a git folder: a `HEAD` file in it. */
function isGitDir(path: string): boolean {
  return lstatSync(join(path, 'HEAD'), { throwIfNoEntry: false })?.isFile() === true;
}
