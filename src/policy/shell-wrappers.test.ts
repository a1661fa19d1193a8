import { describe, expect, it } from 'vitest';
import { basename } from './shell-wrappers.js';

describe('basename (a command name as the rules and wrappers compare it)', () => {
  it.each([
    ['rm', 'rm'],
    ['/bin/rm', 'rm'],
    ['./x/y', 'y'],
    ['dir/', ''],
    ['/', ''],
    ['', ''],
    ['a\\/b', 'b'],
  ])('%j → %j', (name, expected) => {
    expect(basename(name)).toBe(expected);
  });
});
