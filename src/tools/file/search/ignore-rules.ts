import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** The rules of one ignore file (gitignore syntax, read by `ignore`), relative to its directory. */
export class IgnoreFile {
  constructor(
    readonly baseDir: string,
    private readonly rules: Ignore,
  ) {}

  static parse(baseDir: string, text: string): IgnoreFile {
    return new IgnoreFile(baseDir, ignore().add(text));
  }

  /** 'ignore', 'keep' (a `!` rule re-includes it), or null when no rule speaks about the path. */
  decide(path: string, isDir: boolean): 'ignore' | 'keep' | null {
    const rel = relative(this.baseDir, path).replaceAll('\\', '/');
    if (rel === '' || rel.startsWith('..')) return null;
    // `ignore` answers as git does: under an ignored folder everything is ignored. The walk never
    // enters an ignored folder, so a path below one was reached through a search path the user named
    // inside it, which ripgrep searches: no verdict then (the path's own rules are not asked either).
    const parent = rel.lastIndexOf('/');
    if (parent !== -1 && this.rules.test(rel.slice(0, parent + 1)).ignored) return null;
    // A trailing `/` tells `ignore` the path is a folder (for `build/` rules).
    const { ignored, unignored } = this.rules.test(isDir ? `${rel}/` : rel);
    return ignored ? 'ignore' : unignored ? 'keep' : null;
  }
}

export async function loadIgnoreFile(baseDir: string, file: string): Promise<IgnoreFile | null> {
  try {
    return IgnoreFile.parse(baseDir, await readFile(join(baseDir, file), 'utf8'));
  } catch {
    return null;
  }
}

/**
 * The ignore files in force while walking a tree, shallow to deep. A deeper file overrides a
 * shallower one, and within one directory `.rgignore` overrides `.ignore`, which overrides
 * `.gitignore` (ripgrep's precedence).
 */
export class IgnoreStack {
  private readonly files: IgnoreFile[] = [];

  push(file: IgnoreFile | null): number {
    if (file) this.files.push(file);
    return file ? 1 : 0;
  }

  pop(count: number): void {
    this.files.length -= count;
  }

  isIgnored(path: string, isDir: boolean): boolean {
    for (let i = this.files.length - 1; i >= 0; i--) {
      const decision = this.files[i]!.decide(path, isDir);
      if (decision) return decision === 'ignore';
    }
    return false;
  }
}
