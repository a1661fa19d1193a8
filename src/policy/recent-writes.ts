import { dirname } from 'node:path';

/**
 * The last paths the file tools were let write. The calls of one step run concurrently, so a write
 * let through may not have happened when the next call is decided: a test of what a folder holds
 * (protected-files.ts, makesGitFolder) counts these as there, whatever order the calls run in.
 *
 * Asked at every write decision for a few folders each: each path and every folder above it is
 * counted in a map, so a question is one look-up (a scan of the 256 paths with a string built for
 * each was ~100 µs of a decision that takes ten).
 */
export class RecentWrites {
  /** The paths, oldest first, each once. */
  private readonly paths: string[] = [];
  /** How many of the paths are each key or lie under it. */
  private readonly counts = new Map<string, number>();

  constructor(private readonly max = 256) {}

  add(path: string): void {
    if (this.paths.includes(path)) return;
    if (this.paths.length >= this.max) {
      const oldest = this.paths.shift();
      if (oldest !== undefined) this.count(oldest, -1);
    }
    this.paths.push(path);
    this.count(path, 1);
  }

  /** Whether `path` itself, or something under it, was let through. */
  has(path: string): boolean {
    return this.counts.has(path);
  }

  private count(path: string, by: 1 | -1): void {
    for (let at = path; ; ) {
      const now = (this.counts.get(at) ?? 0) + by;
      if (now === 0) this.counts.delete(at);
      else this.counts.set(at, now);
      const above = dirname(at);
      if (above === at) return;
      at = above;
    }
  }
}
