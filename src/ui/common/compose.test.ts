import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { composeInEditor } from './compose.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

it("/editor finds the editor on PATH's absolute entries only, never through a relative one", () => {
  // A relative PATH entry (`.` in a stranger's repository) names a folder of the current directory:
  // here, one that ships its own `vi`.
  const dir = mkdtempSync(join(tmpdir(), 'kimi-ts-compose-'));
  dirs.push(dir);
  const marker = join(dir, 'ran');
  writeFileSync(join(dir, 'vi'), `#!/bin/sh\ntouch '${marker}'\necho planted > "$1"\n`, { mode: 0o755 });
  const result = composeInEditor({ PATH: `${relative(process.cwd(), dir)}:/nonexistent-bin` }, 'draft');
  expect(existsSync(marker)).toBe(false);
  expect(result.text).toBeNull();
  expect(result.error).toMatch(/The editor \(vi\) exited with 127/);
});

it('/editor runs the editor found on an absolute PATH entry, with the draft, and returns what it saved', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kimi-ts-compose-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'my-editor'), `#!/bin/sh\necho "$(cat "$1") and more" > "$1"\n`, { mode: 0o755 });
  const result = composeInEditor({ PATH: `${dir}:/usr/bin:/bin`, EDITOR: 'my-editor' }, 'draft');
  expect(result).toEqual({ text: 'draft and more' });
});
