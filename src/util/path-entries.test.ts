import { describe, expect, it } from 'vitest';
import { absolutePathEntries, withAbsolutePath } from './path-entries.js';

describe('absolutePathEntries', () => {
  it.each([
    ['.:/usr/bin:bin:/bin', '/usr/bin:/bin'],
    ['/usr/bin::/bin', '/usr/bin:/bin'],
    ['/opt/x/bin', '/opt/x/bin'],
  ])('%j keeps %j', (path, kept) => {
    expect(absolutePathEntries(path)).toBe(kept);
  });

  it.each([['.'], [''], ['.:bin:'], [undefined]])(
    "%j (nothing absolute) is the shells' default, never empty (empty is the current directory)",
    (path) => {
      expect(absolutePathEntries(path)).toBe('/usr/local/bin:/usr/bin:/bin');
    },
  );

  it('withAbsolutePath keeps the other variables', () => {
    expect(withAbsolutePath({ PATH: '.:/bin', HOME: '/h' })).toEqual({ PATH: '/bin', HOME: '/h' });
  });
});
