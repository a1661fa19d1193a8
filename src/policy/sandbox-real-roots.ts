import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { isWithinDirectory } from '../util/path-within.js';
import { realOrGiven } from '../util/real-or-given.js';

/**
 * The writable folders by the real path each had when the sandbox first saw it (the session's
 * start, or the first command after `/add-dir`), bound by that path at every command. bwrap
 * resolves a bind's source when the command starts: a folder named through a symlink in another
 * writable folder (a relative `link -> real` a repository ships, a fleet store's added folder)
 * would otherwise be bound wherever a command pointed the link since (`ln -sfn .. link`: the home
 * folder, writable). A real path whose folders were moved since (a symlink now where one of them
 * was) is refused, not bound.
 */
export class RealRoots {
  private readonly known = new Map<string, string>();

  of(dir: string): string {
    const given = resolve(dir);
    let real = this.known.get(given);
    if (real === undefined) {
      real = realOrGiven(given);
      this.known.set(given, real);
    }
    return real;
  }

  /** `dir`'s real path as first seen, when it still names the same place; else throws. */
  checked(dir: string): string {
    const real = this.of(dir);
    if (existsSync(real) && realOrGiven(real) !== real)
      throw new Error(
        `The folder ${resolve(dir)} was moved or replaced by a symlink since the session opened: no command runs until it is back.`,
      );
    return real;
  }

  /** The context with each writable folder by its checked real path (throws as `checked` does). */
  checkedContext<C extends { workDir: string; additionalDirs: () => readonly string[] }>(context: C): C {
    const additionalDirs = context.additionalDirs().map((dir) => this.checked(dir));
    return { ...context, workDir: this.checked(context.workDir), additionalDirs: () => additionalDirs };
  }

  /** A command's folder below a root named through a symlink, by the root's real path. */
  cwd(cwd: string): string {
    const start = resolve(cwd);
    for (const [given, real] of this.known) {
      if (given !== real && isWithinDirectory(start, given)) return real + start.slice(given.length);
    }
    return start;
  }
}
