import { describe, expect, it } from 'vitest';
import { builtOnFirstUse } from './built-on-first-use.js';

describe('builtOnFirstUse', () => {
  it('builds nothing until the first call, then builds once and keeps the value', () => {
    let builds = 0;
    const value = builtOnFirstUse(() => {
      builds += 1;
      return { n: builds };
    });
    expect(builds).toBe(0);
    const first = value();
    expect(value()).toBe(first);
    expect(builds).toBe(1);
  });

  it('keeps a built undefined too (no second build)', () => {
    let builds = 0;
    const value = builtOnFirstUse(() => {
      builds += 1;
      return undefined;
    });
    value();
    value();
    expect(builds).toBe(1);
  });

  it('builds again after a build that threw (nothing was kept)', () => {
    let builds = 0;
    const value = builtOnFirstUse(() => {
      builds += 1;
      if (builds === 1) throw new Error('first build fails');
      return builds;
    });
    expect(() => value()).toThrow('first build fails');
    expect(value()).toBe(2);
  });
});
