import { describe, expect, it } from 'vitest';
import { decideFromOutput } from './decision.js';

const deny = (reason?: unknown) =>
  JSON.stringify({
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: reason,
    },
  });

describe('decideFromOutput', () => {
  it.each([
    ['exit 2 with stderr', 2, '', '  no  \n', { action: 'block', reason: 'no' }],
    ['exit 2 without stderr', 2, 'ignored', '  ', { action: 'block', reason: 'Blocked by PreToolUse hook' }],
    ['exit 2 ignores a JSON allow', 2, '{"decision":"approve"}', 'stop', { action: 'block', reason: 'stop' }],
    ['JSON deny', 0, deny('unsafe'), '', { action: 'block', reason: 'unsafe' }],
    ['JSON deny without reason', 0, deny(), '', { action: 'block', reason: 'Blocked by PreToolUse hook' }],
    [
      'JSON deny with a non-text reason',
      0,
      deny(42),
      '',
      { action: 'block', reason: 'Blocked by PreToolUse hook' },
    ],
    [
      'JSON deny with surrounding whitespace',
      0,
      `\n  ${deny('x')}  \n`,
      '',
      { action: 'block', reason: 'x' },
    ],
    ['decision block', 0, '{"decision":"block","reason":"later"}', '', { action: 'block', reason: 'later' }],
    [
      'JSON ask',
      0,
      '{"hookSpecificOutput":{"permissionDecision":"ask"}}',
      '',
      { action: 'allow', reason: '' },
    ],
    ['JSON allow', 0, '{"decision":"approve","reason":"fine"}', '', { action: 'allow', reason: '' }],
    ['null hookSpecificOutput', 0, '{"hookSpecificOutput":null}', '', { action: 'allow', reason: '' }],
    ['JSON array', 0, '[{"decision":"block"}]', '', { action: 'allow', reason: '' }],
    ['broken JSON', 0, '{"decision":"block"', '', { action: 'allow', reason: '' }],
    ['text before JSON', 0, `log line\n${deny('x')}`, '', { action: 'allow', reason: '' }],
    ['exit 0 with stderr', 0, '', 'warning', { action: 'allow', reason: '' }],
    ['exit 1 with a JSON deny', 1, deny('x'), 'err', { action: 'allow', reason: '' }],
    ['killed (no exit code)', null, deny('x'), '', { action: 'allow', reason: '' }],
  ] as const)('%s', (_name, exitCode, stdout, stderr, expected) => {
    expect(decideFromOutput('PreToolUse', exitCode, stdout, stderr)).toEqual(expected);
  });
});
