import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeIncludes } from './make-includes.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kimi-ts-make-includes-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function files(tree: Record<string, string>): Promise<void> {
  for (const [name, text] of Object.entries(tree)) {
    await mkdir(join(dir, name, '..'), { recursive: true });
    await writeFile(join(dir, name), text);
  }
}

describe('makeIncludes (what a hook’s make reads beyond its Makefile)', () => {
  it('follows include, -include and sinclude, in turn, from make’s folder and the -I folders', async () => {
    await files({
      Makefile: 'include a.mk b.mk\n-include opt/c.mk\nall:\n\tinclude not-a-directive\n',
      'a.mk': 'sinclude deep/d.mk # a comment\n',
      'deep/d.mk': 'x := 1\n',
      'inc/e.mk': '',
      'b.mk': 'include \\\n  e.mk\n',
    });
    const found = makeIncludes([join(dir, 'Makefile')], dir, [join(dir, 'inc')]);
    expect(found.unsure).toBeNull();
    expect(found.files).toEqual(
      expect.arrayContaining([
        join(dir, 'a.mk'),
        join(dir, 'b.mk'),
        join(dir, 'opt/c.mk'),
        join(dir, 'deep/d.mk'),
        join(dir, 'e.mk'),
        join(dir, 'inc/e.mk'),
      ]),
    );
    expect(found.files).not.toContain(join(dir, 'not-a-directive'));
  });

  it('says when a name is built when make runs', async () => {
    await files({ Makefile: 'include $(wildcard mk/*.mk)\n' });
    const found = makeIncludes([join(dir, 'Makefile')], dir, []);
    expect(found.files).toEqual([]);
    expect(found.unsure).toContain('$(wildcard');
  });

  it('stops at a cycle and at its bounds', async () => {
    await files({ Makefile: 'include a.mk\n', 'a.mk': 'include Makefile a.mk\n' });
    expect(makeIncludes([join(dir, 'Makefile')], dir, [])).toEqual({
      files: [join(dir, 'a.mk')],
      unsure: null,
    });
    const many = Array.from({ length: 100 }, (_, i) => `m${i}.mk`).join(' ');
    await files({ Makefile: `include ${many}\n` });
    const found = makeIncludes([join(dir, 'Makefile')], dir, []);
    expect(found.files.length).toBeLessThan(100);
    expect(found.unsure).toContain('more included makefiles');
  });

  it('reads nothing of a missing makefile', () => {
    expect(makeIncludes([join(dir, 'GNUmakefile')], dir, [])).toEqual({ files: [], unsure: null });
  });
});
