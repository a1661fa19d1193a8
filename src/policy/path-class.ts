import { isWithinDirectory } from '../util/path-within.js';
import { realPathNow } from './real-path.js';

/** Where a real path lies relative to the session's workspace. */
export type PathClass = 'workspace' | 'add-dir' | 'outside';

/**
 * The workspace roots by their real paths, each resolved once, when first seen (the work dir and the
 * first add-dirs when the session's policy is made; one `/add-dir` adds at its first decision), and
 * kept: a root named through a symlink that a command re-points since (`ln -sfn .. link`) still
 * means the folder it named then, as the sandbox binds it (src/policy/sandbox.ts, RealRoots).
 */
export class WorkspaceRoots {
  private readonly known = new Map<string, string>();

  constructor(
    readonly workDir: string,
    /** Shared and mutable (`/add-dir` adds to it). */
    readonly additionalDirs: readonly string[],
  ) {
    this.realOf(workDir);
    for (const dir of additionalDirs) this.realOf(dir);
  }

  private realOf(dir: string): string {
    let real = this.known.get(dir);
    if (real === undefined) {
      real = realPathNow(dir);
      this.known.set(dir, real);
    }
    return real;
  }

  private resolved(): { workDir: string; additionalDirs: string[] } {
    return {
      workDir: this.realOf(this.workDir),
      additionalDirs: this.additionalDirs.map((dir) => this.realOf(dir)),
    };
  }

  async classify(realPath: string): Promise<PathClass> {
    const roots = this.resolved();
    if (isWithinDirectory(realPath, roots.workDir)) return 'workspace';
    if (roots.additionalDirs.some((dir) => isWithinDirectory(realPath, dir))) return 'add-dir';
    return 'outside';
  }

  /** The real add-dirs. */
  async realAdditionalDirs(): Promise<string[]> {
    return this.resolved().additionalDirs;
  }

  /** The real work dir (to show paths relative to it). */
  async realWorkDir(): Promise<string> {
    return this.resolved().workDir;
  }
}
