import { expect, it } from 'vitest';
import { changedLines } from './diff-changes.js';

it('lists removed and added lines with their numbers, unchanged lines left out, blank lines kept', () => {
  const block = { old_text: 'a\nb\nc\n', new_text: 'a\nB\nc\n\nd\n', old_start: 10, new_start: 10 };
  expect(changedLines(block)).toEqual([
    { sign: '-', number: 11, text: 'b' },
    { sign: '+', number: 11, text: 'B' },
    { sign: '+', number: 13, text: '' },
    { sign: '+', number: 14, text: 'd' },
  ]);
});
