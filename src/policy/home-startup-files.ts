import { realpathSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { isHomeStartupEntry } from '../util/home-startup-entry.js';
import { isWithinDirectory } from '../util/path-within.js';

/**
 * The person's home as the file tools' policy sees it: what a write under one of its startup entries
 * is. Both the home as given and where it really is count (a home reached through a symlink).
 */
export class HomeStartupFiles {
  private readonly homes: readonly string[];

  /** `workspace`: the session's writable folders, read at each call (`/add-dir` counts at once). */
  constructor(
    userHome: string,
    private readonly workspace: () => readonly string[],
  ) {
    const given = resolve(userHome);
    let real = given;
    try {
      real = realpathSync.native(given);
    } catch {
      // A home that does not exist holds no startup file to protect; the given path is kept.
    }
    this.homes = real === given ? [given] : [given, real];
  }

  /**
   * Why `path` (absolute, normalised) is protected, or null: it is a home startup entry or below one,
   * and not inside a workspace folder that is itself inside that entry (a project kept under
   * `~/.local/src/app` is the person's work, not their startup files).
   */
  reason(path: string): string | null {
    for (const home of this.homes) {
      if (path === home || !isWithinDirectory(path, home)) continue;
      const top = relative(home, path).split(sep)[0] ?? '';
      if (!isHomeStartupEntry(top)) continue;
      const topPath = resolve(home, top);
      const insideProject = this.workspace().some(
        (dir) => isWithinDirectory(resolve(dir), topPath) && isWithinDirectory(path, resolve(dir)),
      );
      if (insideProject) continue;
      return `a startup file of your home (\`~/${top}\`: your shell and tools run what it holds, outside any sandbox)`;
    }
    return null;
  }
}
