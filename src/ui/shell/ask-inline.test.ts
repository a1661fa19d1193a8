import { describe, expect, it } from 'vitest';
import { withBlankRunsShown } from './ask-inline.js';

describe('withBlankRunsShown', () => {
  it.each([
    ['one line', 'one line'],
    ['a\nb', 'a\nb'],
    ['a\n\nb', 'a\n\nb'],
    ['rm -rf ~/work\n\n\n\n\nls -la', 'rm -rf ~/work\n⟨4 blank lines⟩\nls -la'],
    ['a\n  \n\t\n \nb', 'a\n⟨3 blank lines⟩\nb'],
  ])('%j', (input, expected) => {
    expect(withBlankRunsShown(input)).toBe(expected);
  });
});
