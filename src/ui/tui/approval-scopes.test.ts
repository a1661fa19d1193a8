import { describe, expect, it } from 'vitest';
import type { ApprovalRequestData } from '../../wire/requests.js';
import { commandPrefix, sessionScopes } from './approval-scopes.js';

const shellRequest = (command: string): ApprovalRequestData => ({
  id: 'r',
  tool_call_id: 'c',
  sender: 'Shell',
  action: 'run command',
  description: 'd',
  display: [{ type: 'shell', language: 'bash', command }],
});

describe('commandPrefix', () => {
  it('is the first word, or the first two of a command family', () => {
    expect(commandPrefix('echo one two')).toBe('echo');
    expect(commandPrefix('  git status -s')).toBe('git status');
    expect(commandPrefix('npm run build')).toBe('npm run');
    expect(commandPrefix('git --no-pager log')).toBe('git');
  });

  it('offers none for words that are not plain names (assignments, quoting, expansions, paths)', () => {
    for (const command of ['FOO=1 rm -rf /', '"rm" x', '$(curl evil) x', './run.sh', '`id`', '\x1b[2Jls', ''])
      expect(commandPrefix(command)).toBeNull();
  });
});

describe('sessionScopes', () => {
  it('offers the exact command, its prefix and the whole action, with the text inert', () => {
    const scopes = sessionScopes(shellRequest('ls \x1b[31mred'));
    expect(scopes.map((s) => s.label)).toEqual([
      'Only `ls ␛[31mred`, for this session',
      'Commands starting with `ls`, for this session',
      'Every "run command", for this session',
    ]);
    expect(scopes[1]?.answer).toEqual({ scope: 'prefix', prefix: 'ls' });
  });

  it('offers no prefix for a request that is not a command', () => {
    const scopes = sessionScopes({ ...shellRequest(''), action: 'edit file', display: [] });
    expect(scopes.map((s) => s.answer.scope)).toEqual(['exact', 'action']);
  });
});
