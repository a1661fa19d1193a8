import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AutocompleteProvider } from '@mariozechner/pi-tui';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { PathCompletion } from './path-completion.js';

/**
 * `@` completion lists a trusted folder's files with `git ls-files`, which runs the repository's
 * core.fsmonitor. A repository a command made this session (not cleaned yet: a background command
 * still runs) may carry one: it never runs for a listing.
 */

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'kimi-ts-path-completion-'));
});
afterEach(() => rm(root, { recursive: true, force: true }));

const none: AutocompleteProvider = {
  getSuggestions: async () => null,
  applyCompletion: (lines, cursorLine, cursorCol) => ({ lines, cursorLine, cursorCol }),
};

it("lists a repository's files without running its core.fsmonitor", async () => {
  const work = join(root, 'work');
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
      cwd: work,
      stdio: 'ignore',
    });
  execFileSync('git', ['init', '-q', work]);
  await writeFile(join(work, 'tracked.txt'), 'x\n');
  git('add', 'tracked.txt');
  git('commit', '-qm', 'one');
  const marker = join(root, 'RAN');
  const monitor = join(root, 'monitor.sh');
  await writeFile(monitor, `#!/bin/sh\ntouch '${marker}'\n`);
  await chmod(monitor, 0o755);
  git('config', 'core.fsmonitor', monitor);
  const completion = new PathCompletion(none, work, () => true);
  const found = await completion.getSuggestions(['@track'], 0, 6, { signal: new AbortController().signal });
  expect(found?.items.map((item) => item.label)).toEqual(['tracked.txt']);
  expect(existsSync(marker)).toBe(false);
});
