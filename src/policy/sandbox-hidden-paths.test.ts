import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HIDDEN_HOME_PATHS, hiddenPaths } from './sandbox-hidden-paths.js';

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
