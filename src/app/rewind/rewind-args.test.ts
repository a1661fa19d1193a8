import { describe, expect, it } from 'vitest';
import { parseRewindArgs } from './rewind-args.js';

describe('parseRewindArgs', () => {
  it.each([
    ['', { kind: 'rewind', turn: null, code: true, conversation: true, force: false }],
    ['2', { kind: 'rewind', turn: 2, code: true, conversation: true, force: false }],
    ['3 --code', { kind: 'rewind', turn: 3, code: true, conversation: false, force: false }],
    ['--conversation 1', { kind: 'rewind', turn: 1, code: false, conversation: true, force: false }],
    ['1 --both --force', { kind: 'rewind', turn: 1, code: true, conversation: true, force: true }],
    ['--redo', { kind: 'redo', force: false }],
    ['list', { kind: 'list' }],
  ])('%s', (text, expected) => {
    expect(parseRewindArgs(text)).toEqual(expected);
  });

  it.each(['0', '1 2', '--code --conversation', '--redo 2', '../x', '1; rm -rf /'])('refuses %s', (text) => {
    expect(parseRewindArgs(text).kind).toBe('usage');
  });
});
