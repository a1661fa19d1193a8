import { describe, expect, it } from 'vitest';
import { parseGoalArgs } from './goal-command.js';

describe('parseGoalArgs', () => {
  it('reads the flags before the objective', () => {
    expect(
      parseGoalArgs(
        `--check 'test -f done.txt && grep -q ok done.txt' --max-turns 4 --max-tokens 9000 --max-time 30m write done.txt`,
      ),
    ).toEqual({
      objective: 'write done.txt',
      check: 'test -f done.txt && grep -q ok done.txt',
      budget: { maxTurns: 4, maxTokens: 9000, maxTimeMs: 1_800_000 },
    });
  });

  it('takes a plain objective as it is, flags inside it included', () => {
    expect(parseGoalArgs('rename --max-turns to --limit in the docs')).toEqual({
      objective: 'rename --max-turns to --limit in the docs',
      check: null,
      budget: {},
    });
  });

  it.each([
    ['--max-turns 0 x', /positive whole number/],
    ['--max-turns two x', /positive whole number/],
    ['--max-time soon x', /duration/],
    ["--check '' x", /needs a command/],
    ['--frobnicate x', /Unknown option/],
  ])('refuses %s', (args, problem) => {
    expect(parseGoalArgs(args)).toMatch(problem);
  });
});
