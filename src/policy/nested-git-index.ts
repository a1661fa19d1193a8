import type { SharedWorkTreeWalk } from '../util/shared-work-tree-walk.js';
import { NestedGitWalk } from './nested-git.js';

/**
 * The nested repositories' git metadata of one writable workspace, read between commands instead of
 * at each command's start: a read of a large tree costs tens of milliseconds, which every command
 * would otherwise wait for.
 *
 * The first command waits for the first reading. When a command ends, the tree is read again at
 * once, while the model writes its next step, and the next command waits for that reading (usually
 * long finished): so each command binds read-only what existed when the commands before it ended —
 * what the sandbox.ts comment on `nestedGitBinds` promises. What a command makes while it runs is
 * its own work, as before; the file tools never write under a `.git` without a question.
 */
export class NestedGitIndex {
  private reading: Promise<string[]> | null = null;
  private readonly walk: NestedGitWalk;

  /** `shared`: the walk of `root` the other checks after a command read too (one reading serves all). */
  constructor(root: string, writableRoots: readonly string[], shared?: SharedWorkTreeWalk) {
    this.walk = new NestedGitWalk(root, writableRoots, Date.now, shared);
  }

  /** The nested `.git` paths as of the last reading (the first call reads now). */
  paths(): Promise<string[]> {
    this.reading ??= this.walk.read();
    return this.reading;
  }

  /** The folders shaped like a bare repository, as of the same reading as `paths`. */
  async bareRepositories(): Promise<readonly string[]> {
    await this.paths();
    return this.walk.bareRepositories();
  }

  /** The git metadata under folders whose repositories are not bound (node_modules…), same reading. */
  async unboundGitDirs(): Promise<readonly string[]> {
    await this.paths();
    return this.walk.unboundGitDirs();
  }

  /**
   * A command ended: read the tree again before the next one starts. After a reading under way, not
   * beside it: that one may have passed a folder before the command changed it.
   */
  refresh(): void {
    // Asked for now, to share the reading the other checks ask for as the command ends (the walk
    // starts it after the one under way); settles after the last reading, whatever that came to.
    const next = this.walk.read();
    next.catch(() => undefined);
    const before = this.reading ?? Promise.resolve([]);
    this.reading = before.then(
      () => next,
      () => next,
    );
  }
}
