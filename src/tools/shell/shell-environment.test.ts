import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findBash } from './shell-environment.js';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'kimi-ts-find-bash-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function executable(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'bash');
  await writeFile(file, '#!/bin/sh\n');
  await chmod(file, 0o755);
  return file;
}

describe('findBash', () => {
  it('finds the first bash on PATH, and another one once the one it found is gone', async () => {
    const first = join(root, 'a');
    const second = join(root, 'b');
    await mkdir(first);
    const later = await executable(second);
    const env = { PATH: `${first}:${second}` };
    expect(findBash(env, [])).toBe(later);
    expect(findBash(env, [])).toBe(later);
    await rm(later);
    const earlier = await executable(first);
    expect(findBash(env, [])).toBe(earlier);
  });

  it('skips a bash that is not executable', async () => {
    const dir = join(root, 'c');
    const file = await executable(dir);
    await chmod(file, 0o644);
    expect(findBash({ PATH: dir }, [])).not.toBe(file);
  });
});
