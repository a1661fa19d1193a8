import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HomeStartupFiles } from './home-startup-files.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'kimi-ts-home-startup-')));
const home = join(root, 'home');
mkdirSync(join(home, '.local', 'src', 'app'), { recursive: true });
symlinkSync(home, join(root, 'home-link'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the startup files of the home', () => {
  const workspace: string[] = [home];
  const files = new HomeStartupFiles(home, () => workspace);

  it.each([
    ['.bashrc'],
    ['.bash_profile'],
    ['.config/fish/config.fish'],
    ['.local/bin/git'],
    ['.ssh/authorized_keys'],
    ['bin/ls'],
  ])('%s is one', (relativePath) => {
    expect(files.reason(join(home, relativePath))).toMatch(/startup file of your home/);
  });

  it.each([['notes.txt'], ['project/.env'], ['binaries/x'], ['project/bin/tool']])(
    '%s is none',
    (relativePath) => {
      expect(files.reason(join(home, relativePath))).toBeNull();
    },
  );

  it('the home itself and paths outside it are none', () => {
    expect(files.reason(home)).toBeNull();
    expect(files.reason(join(root, '.bashrc'))).toBeNull();
  });

  it('a project kept inside a dot folder is the work of whoever opened it there', () => {
    workspace.push(join(home, '.local', 'src', 'app'));
    expect(files.reason(join(home, '.local', 'src', 'app', 'main.ts'))).toBeNull();
    expect(files.reason(join(home, '.local', 'bin', 'tool'))).toMatch(/startup file/);
    workspace.pop();
  });

  it('a home given through a symlink protects the real paths too', () => {
    const linked = new HomeStartupFiles(join(root, 'home-link'), () => []);
    expect(linked.reason(join(home, '.profile'))).toMatch(/startup file/);
    expect(linked.reason(join(root, 'home-link', '.profile'))).toMatch(/startup file/);
  });
});
