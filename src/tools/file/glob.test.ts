import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { comparePaths } from './glob.js';
import { briefOf, FileToolsHarness } from './test-support/file-tools-harness.js';

let h: FileToolsHarness;
beforeEach(async () => {
  h = await FileToolsHarness.create({ specs: ['kimi-ts/tools/file/glob:Glob'] });
});
afterEach(async () => {
  await h.dispose();
});

async function touch(...names: string[]): Promise<void> {
  for (const name of names) {
    const path = join(h.workDir, name);
    await mkdir(join(path, '..'), { recursive: true });
    await writeFile(path, name);
  }
}

async function manyFiles(count: number): Promise<void> {
  await mkdir(join(h.workDir, 'many'));
  await Promise.all(
    Array.from({ length: count }, (_, i) =>
      writeFile(join(h.workDir, 'many', `f${String(i).padStart(4, '0')}.txt`), ''),
    ),
  );
}

describe('Glob', () => {
  it('lists matches sorted and relative to the directory, hidden files included', async () => {
    await touch('src/b.ts', 'src/a.ts', 'src/.hidden.ts', 'src/deep/c.ts', 'README.md');
    const result = await h.call('Glob', { pattern: 'src/**/*.ts' });
    expect(result.is_error).toBe(false);
    expect(result.output).toBe('src/.hidden.ts\nsrc/a.ts\nsrc/b.ts\nsrc/deep/c.ts');
    expect(result.message).toBe('Found 4 matches for pattern `src/**/*.ts`.');
  });

  it('includes directories unless include_dirs is false', async () => {
    await touch('src/a.ts', 'src/lib/b.ts');
    expect((await h.call('Glob', { pattern: 'src/*' })).output).toBe('src/a.ts\nsrc/lib');
    expect((await h.call('Glob', { pattern: 'src/*', include_dirs: false })).output).toBe('src/a.ts');
    expect((await h.call('Glob', { pattern: 'src/**' })).output).toBe('src\nsrc/a.ts\nsrc/lib\nsrc/lib/b.ts');
  });

  it('searches an absolute directory inside the workspace', async () => {
    await touch('pkg/x.json', 'pkg/y.json', 'z.json');
    const result = await h.call('Glob', { pattern: '*.json', directory: join(h.workDir, 'pkg') });
    expect(result.output).toBe('x.json\ny.json');
  });

  it('returns 1,000 matches as they are and caps 1,001 with a notice', async () => {
    await manyFiles(1000);
    const exact = await h.call('Glob', { pattern: 'many/*.txt' });
    expect(String(exact.output).split('\n')).toHaveLength(1000);
    expect(exact.message).toBe('Found 1000 matches for pattern `many/*.txt`.');
    await writeFile(join(h.workDir, 'many', 'f1000.txt'), '');
    const over = await h.call('Glob', { pattern: 'many/*.txt' });
    const lines = String(over.output).split('\n');
    expect(lines).toHaveLength(1000);
    expect(lines.at(-1)).toBe('many/f0999.txt');
    expect(over.message).toBe(
      'Found 1001 matches for pattern `many/*.txt`. Only the first 1000 matches are returned. You may want to use a more specific pattern.',
    );
  });

  it('says when nothing matches', async () => {
    const result = await h.call('Glob', { pattern: '*.nothing' });
    expect([result.is_error, result.output, result.message]).toEqual([
      false,
      '',
      'No matches found for pattern `*.nothing`.',
    ]);
  });

  it('refuses a pattern starting with ** and lists the top level instead', async () => {
    await touch('src/a.ts', 'notes.txt');
    const result = await h.call('Glob', { pattern: '**/*.ts' });
    expect(result.is_error).toBe(true);
    expect(briefOf(result)).toBe('Unsafe pattern');
    expect(result.message).toMatch(/^Pattern `\*\*\/\*\.ts` starts with '\*\*' which is not allowed\./);
    expect(result.output).toBe('notes.txt (9 bytes)\nsrc/');
  });

  it('refuses patterns that climb out of the directory', async () => {
    for (const pattern of ['../outside/*', '/etc/*']) {
      expect(briefOf(await h.call('Glob', { pattern }))).toBe('Unsafe pattern');
    }
  });

  it('checks the directory: absolute, inside the workspace, existing, a directory', async () => {
    const relative = await h.call('Glob', { pattern: '*', directory: 'src' });
    expect([relative.message, briefOf(relative)]).toEqual([
      '`src` is not an absolute path. You must provide an absolute path to search.',
      'Invalid directory',
    ]);
    const outside = await h.call('Glob', { pattern: '*', directory: h.outsideDir });
    expect(outside.message).toBe(
      `\`${h.outsideDir}\` is outside the workspace. You can only search within the working directory and additional directories.`,
    );
    expect(briefOf(outside)).toBe('Directory outside workspace');
    const missing = await h.call('Glob', { pattern: '*', directory: join(h.workDir, 'gone') });
    expect(briefOf(missing)).toBe('Directory not found');
    await touch('file.txt');
    const notDir = await h.call('Glob', { pattern: '*', directory: join(h.workDir, 'file.txt') });
    expect([notDir.message, briefOf(notDir)]).toEqual([
      `\`${join(h.workDir, 'file.txt')}\` is not a directory.`,
      'Invalid directory',
    ]);
  });

  it('refuses a symlink inside the workspace that leads outside, and allows additional dirs', async () => {
    await writeFile(join(h.outsideDir, 'secret.txt'), '');
    await symlink(h.outsideDir, join(h.workDir, 'link'));
    const viaLink = await h.call('Glob', { pattern: '*', directory: join(h.workDir, 'link') });
    expect(briefOf(viaLink)).toBe('Directory outside workspace');
    h.additionalDirs.push(h.outsideDir);
    expect((await h.call('Glob', { pattern: '*', directory: h.outsideDir })).output).toBe('secret.txt');
  });
});

describe('comparePaths', () => {
  it('orders a directory tree before sibling names that share a prefix', () => {
    expect(['a.txt', 'a/b', 'A', 'a'].sort(comparePaths)).toEqual(['A', 'a', 'a/b', 'a.txt']);
  });
});
