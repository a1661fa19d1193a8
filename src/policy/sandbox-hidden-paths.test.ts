import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HIDDEN_HOME_PATHS, hiddenPathKinds, hiddenPaths } from './sandbox-hidden-paths.js';

/**
 * The hidden-path list is built once per set of homes and config files, not at every command: the
 * sandbox hands bwrapArguments a fresh copy of its context for each command (RealRoots.checkedContext),
 * so a list kept per context object was built again every time. What it is made of still decides it.
 */
describe('hiddenPaths', () => {
  const context = { kimiHome: '/h/.kimi-ts', userHome: '/h', configFiles: ['/etc/kimi/config.toml'] };

  it('names the agent home, the config files and every credential path under the home', () => {
    expect(hiddenPaths(context)).toEqual([
      '/h/.kimi-ts',
      '/etc/kimi/config.toml',
      ...HIDDEN_HOME_PATHS.map((path) => resolve('/h', path)),
    ]);
  });

  it('is not built again for a copy of the same context (one per command)', () => {
    const first = hiddenPaths(context);
    expect(hiddenPaths({ ...context })).toBe(first);
    expect(hiddenPaths({ ...context, configFiles: [...context.configFiles] })).toBe(first);
  });

  it('follows what it is made of: another home, another agent home, another config file', () => {
    const first = hiddenPaths(context);
    expect(hiddenPaths({ ...context, userHome: '/other' })).toContain('/other/.ssh');
    expect(hiddenPaths({ ...context, kimiHome: '/k' })[0]).toBe('/k');
    expect(hiddenPaths({ ...context, configFiles: ['/c.toml'] })).toContain('/c.toml');
    expect(hiddenPaths({ ...context, configFiles: undefined })).not.toContain('/etc/kimi/config.toml');
    // Back to the first: the same list again.
    expect(hiddenPaths({ ...context })).toEqual(first);
  });
});

describe('hiddenPathKinds', () => {
  it('finds what exists under the home, deep or not, without asking about what cannot', async () => {
    const { mkdtemp, mkdir, writeFile, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const home = await mkdtemp(join(tmpdir(), 'kimi-ts-hidden-kinds-'));
    try {
      await mkdir(join(home, '.ssh'));
      await mkdir(join(home, '.config', 'gh'), { recursive: true });
      await writeFile(join(home, '.s3cfg'), 'x');
      const outside = join(home, 'elsewhere', 'config.toml');
      await mkdir(join(home, 'elsewhere'));
      await writeFile(outside, 'x');
      const kinds = hiddenPathKinds({
        kimiHome: join(home, '.kimi-ts'),
        userHome: home,
        configFiles: [outside],
      });
      expect(kinds.get(join(home, '.ssh'))).toBe('dir');
      expect(kinds.get(join(home, '.config', 'gh'))).toBe('dir');
      expect(kinds.get(join(home, '.config', 'gcloud'))).toBeNull();
      expect(kinds.get(join(home, '.s3cfg'))).toBe('file');
      expect(kinds.get(join(home, '.aws'))).toBeNull();
      expect(kinds.get(join(home, '.kimi-ts'))).toBeNull();
      expect(kinds.get(outside)).toBe('file');
      // Made after a first look: found at the next command.
      await mkdir(join(home, '.aws'));
      expect(
        hiddenPathKinds({ kimiHome: join(home, '.kimi-ts'), userHome: home }).get(join(home, '.aws')),
      ).toBe('dir');
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});

describe('hiddenPathKinds, through folders that cannot be listed', () => {
  it('asks a place whose folder on the way is a file or unlistable, as stat would answer', async () => {
    const { mkdtemp, mkdir, writeFile, rm, symlink } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const home = await mkdtemp(join(tmpdir(), 'kimi-ts-hidden-kinds-'));
    try {
      // ~/.config a file: nothing under it exists; ~/.local a link to a folder elsewhere.
      await writeFile(join(home, '.config'), 'x');
      await mkdir(join(home, 'elsewhere', 'share', 'keyrings'), { recursive: true });
      await symlink(join(home, 'elsewhere'), join(home, '.local'));
      const kinds = hiddenPathKinds({ kimiHome: join(home, '.kimi-ts'), userHome: home });
      expect(kinds.get(join(home, '.config', 'gh'))).toBeNull();
      expect(kinds.get(join(home, '.local', 'share', 'keyrings'))).toBe('dir');
      expect(kinds.get(join(home, '.local', 'share', 'com.vercel.cli'))).toBeNull();
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
