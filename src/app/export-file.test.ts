import { lstat, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commandLineExportChecks, writeExportFile } from './export-file.js';

let root: string;
let home: string;
let work: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'kimi-ts-export-file-'));
  home = join(root, 'home');
  work = join(home, 'work');
  await mkdir(work, { recursive: true });
  await writeFile(join(home, '.bashrc'), '# bashrc\n');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function checks() {
  return commandLineExportChecks({ HOME: home, KIMI_TS_HOME: join(home, '.kimi-ts') });
}

describe('writeExportFile', () => {
  it('writes a new file and replaces a plain one', async () => {
    expect(await writeExportFile(join(work, 'a.md'), 'one', checks())).toEqual({
      kind: 'written',
      file: join(work, 'a.md'),
    });
    await writeExportFile(join(work, 'a.md'), 'two', checks());
    expect(await readFile(join(work, 'a.md'), 'utf8')).toBe('two');
  });

  it('refuses a symlink, and a protected or secret file reached through a symlinked folder', async () => {
    await symlink(join(home, '.bashrc'), join(work, 'session.md'));
    await symlink(home, join(work, 'out'));
    await mkdir(join(home, '.ssh'));
    const cases: [string, RegExp][] = [
      [join(work, 'session.md'), /session\.md is a symlink/],
      [join(work, 'out', '.bashrc'), /\.bashrc is protected/],
      [join(work, 'out', '.ssh', 'config'), /config is a secret file \(an SSH folder\)/],
      [join(work, '.env'), /\.env is a secret file/],
    ];
    for (const [path, problem] of cases) {
      const written = await writeExportFile(path, 'touch /tmp/owned', checks());
      expect(written.kind, path).toBe('refused');
      if (written.kind === 'refused') expect(written.problem).toMatch(problem);
    }
    expect(await readFile(join(home, '.bashrc'), 'utf8')).toBe('# bashrc\n');
    expect((await lstat(join(work, 'session.md'))).isSymbolicLink()).toBe(true);
  });
});
