import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { runGitProcess } from './git-process.js';

/**
 * git runs in the work tree (its cwd), and the work tree is a stranger's: a PATH entry that is not
 * absolute (`.`, `bin`, an empty one) would find the repository's own `git` there and run it.
 */

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'kimi-ts-git-relative-path-'));
});
afterEach(() => rm(root, { recursive: true, force: true }));

it("never runs a work tree's own `git` through a relative PATH entry", async () => {
  const marker = join(root, 'PWNED');
  await writeFile(join(root, 'git'), `#!/bin/sh\ntouch '${marker}'\necho 'git version 9.9.9'\n`, {
    mode: 0o755,
  });
  for (const path of [`.:${process.env.PATH}`, `:${process.env.PATH}`]) {
    const result = await runGitProcess(['--version'], {
      cwd: root,
      env: { PATH: path, HOME: root },
      settings: [],
      failure: (message) => new Error(message),
      missing: 'git is not installed.',
    });
    expect(result.stdout.toString()).not.toContain('9.9.9');
    expect(existsSync(marker)).toBe(false);
  }
});
