import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { hookScriptFiles } from './hook-script-files.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'kimi-ts-hook-scripts-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

it('names the existing files a hook command names: relative to the work dir, absolute, ~/, quoted', () => {
  const work = join(root, 'work');
  const home = join(root, 'home');
  mkdirSync(join(work, 'scripts'), { recursive: true });
  mkdirSync(join(home, 'bin'), { recursive: true });
  writeFileSync(join(work, 'scripts', 'format.sh'), '');
  writeFileSync(join(work, 'scripts', 'with space.sh'), '');
  writeFileSync(join(home, 'bin', 'notify'), '');
  const files = hookScriptFiles(
    [
      'sh scripts/format.sh --fix',
      `"${join(work, 'scripts', 'with space.sh')}"`,
      '~/bin/notify done',
      'npm run lint',
      'scripts',
      'sh scripts/missing.sh',
    ],
    work,
    home,
  );
  expect(files).toEqual([
    join(work, 'scripts', 'format.sh'),
    join(work, 'scripts', 'with space.sh'),
    join(home, 'bin', 'notify'),
  ]);
});
