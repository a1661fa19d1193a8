import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { compileGlobRule, type GlobRule } from './glob-regex.js';

/** The rules of one ignore file, relative to the directory it sits in. */
export class IgnoreFile {
  constructor(
    readonly baseDir: string,
    private readonly rules: readonly GlobRule[],
  ) {}

  static parse(baseDir: string, text: string): IgnoreFile {
    const rules = text
      .split(/\r?\n/)
      .map(compileGlobRule)
      .filter((rule) => rule !== null);
    return new IgnoreFile(baseDir, rules);
  }

  /** 'ignore', 'keep' (a `!` rule re-includes it), or null when no rule speaks about the path. */
  decide(path: string, isDir: boolean): 'ignore' | 'keep' | null {
    const rel = relative(this.baseDir, path).replaceAll('\\', '/');
    if (rel === '' || rel.startsWith('..')) return null;
    for (let i = this.rules.length - 1; i >= 0; i--) {
      const rule = this.rules[i]!;
      if (rule.dirOnly && !isDir) continue;
      if (rule.regex.test(rel)) return rule.negated ? 'keep' : 'ignore';
    }
    return null;
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
