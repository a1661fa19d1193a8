import { homedir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { expandHome, isWithinDirectory, resolveToolPath } from './workspace-path.js';

const workspace = { workDir: '/work/proj', additionalDirs: ['/data/shared'] };

describe('resolveToolPath', () => {
  it('resolves relative paths against the work dir', () => {
    expect(resolveToolPath('src/a.ts', workspace, 'read')).toEqual({
      ok: true,
      path: '/work/proj/src/a.ts',
      outsideWorkspace: false,
    });
  });

  it('refuses a relative path that leaves the workspace, naming the purpose', () => {
    const result = resolveToolPath('../other/x', workspace, 'edit');
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.message).toBe(
        '`../other/x` is not an absolute path. You must provide an absolute path to edit a file outside the working directory.',
      );
    }
  });

  it('allows absolute paths outside and marks them', () => {
    expect(resolveToolPath('/etc/hosts', workspace, 'read')).toEqual({
      ok: true,
      path: '/etc/hosts',
      outsideWorkspace: true,
    });
  });

  it('counts additional dirs as workspace, also for relative paths reaching them', () => {
    expect(resolveToolPath('/data/shared/f', workspace, 'write')).toMatchObject({ outsideWorkspace: false });
    expect(resolveToolPath('../../data/shared/f', workspace, 'write')).toMatchObject({ ok: true });
  });

  it('expands ~ to the home directory (an absolute path)', () => {
    expect(expandHome('~')).toBe(homedir());
    expect(resolveToolPath('~/notes.md', workspace, 'read')).toMatchObject({
      ok: true,
      path: `${homedir()}/notes.md`,
    });
    expect(expandHome('~user/x')).toBe('~user/x');
  });
});

describe('isWithinDirectory', () => {
  it.each([
    ['/a/b', '/a', true],
    ['/a', '/a', true],
    ['/ab', '/a', false],
    ['/a/../b', '/a', false],
    ['/a/..b', '/a', true],
  ])('%s within %s: %s', (path, dir, expected) => {
    expect(isWithinDirectory(path, dir)).toBe(expected);
  });
});
