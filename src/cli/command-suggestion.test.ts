import { describe, expect, it } from 'vitest';
import { editDistance, mistypedCommand } from './command-suggestion.js';

const COMMANDS = [
  'sessions',
  'export',
  'vis',
  'mcp',
  'plugin',
  'acp',
  'web',
  'login',
  'logout',
  'info',
  'doctor',
];

describe('mistypedCommand', () => {
  it.each([
    [['sesions'], 'sessions'],
    [['sessoins'], 'sessions'],
    [['doctr'], 'doctor'],
    [['exprot'], 'export'],
    [['inf'], 'info'],
    [['fix'], null],
    [['hello'], null],
    [['fix the bug'], null],
    [['fix', 'the', 'bug'], null],
    [['Sesions'], null],
  ])('%j → %s', (words, expected) => {
    expect(mistypedCommand(words, COMMANDS)).toBe(expected);
  });

  it('counts edits', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('ab', 'ba')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
  });
});
