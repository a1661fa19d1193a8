import { sep } from 'node:path';

/**
 * The last paths the file tools were let write. The calls of one step run concurrently, so a write
 * let through may not have happened when the next call is decided: a test of what a folder holds
 * (protected-files.ts, makesGitFolder) counts these as there, whatever order the calls run in.
 */
export class RecentWrites {
  private readonly paths: string[] = [];

  constructor(private readonly max = 256) {}

  add(path: string): void {
    if (this.paths.length >= this.max) this.paths.shift();
    this.paths.push(path);
  }

  /** Whether `path` itself, or something under it, was let through. */
  has(path: string): boolean {
    const under = `${path}${sep}`;
    return this.paths.some((written) => written === path || written.startsWith(under));
  }
}
