import { isWithinDirectory } from './path-within.js';
import { realPathOf } from './real-path.js';

/** Where a real path lies relative to the session's workspace. */
export type PathClass = 'workspace' | 'add-dir' | 'outside';

/** The workspace roots by their real paths, re-resolved only when the list of dirs changes. */
export class WorkspaceRoots {
  private key = '';
  private roots: Promise<{ workDir: string; additionalDirs: string[] }> | undefined;

  constructor(
    readonly workDir: string,
    /** Shared and mutable (`/add-dir` adds to it). */
    readonly additionalDirs: readonly string[],
  ) {}

  private resolved(): Promise<{ workDir: string; additionalDirs: string[] }> {
    const key = this.additionalDirs.join('\0');
    if (!this.roots || key !== this.key) {
      this.key = key;
      this.roots = (async () => ({
        workDir: await realPathOf(this.workDir),
        additionalDirs: await Promise.all(this.additionalDirs.map((dir) => realPathOf(dir))),
      }))();
    }
    return this.roots;
  }

  async classify(realPath: string): Promise<PathClass> {
    const roots = await this.resolved();
    if (isWithinDirectory(realPath, roots.workDir)) return 'workspace';
    if (roots.additionalDirs.some((dir) => isWithinDirectory(realPath, dir))) return 'add-dir';
    return 'outside';
  }

  /** The real add-dirs. */
  async realAdditionalDirs(): Promise<string[]> {
    return (await this.resolved()).additionalDirs;
  }

  /** The real work dir (to show paths relative to it). */
  async realWorkDir(): Promise<string> {
    return (await this.resolved()).workDir;
  }
}
