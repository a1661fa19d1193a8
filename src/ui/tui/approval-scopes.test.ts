import { describe, expect, it } from 'vitest';
import type { ApprovalRequestData } from '../../wire/requests.js';
import { sessionScopes } from './approval-scopes.js';

const shellRequest = (command: string): ApprovalRequestData => ({
  id: 'r',
  tool_call_id: 'c',
  sender: 'Shell',
  action: 'run command',
  description: 'd',
  display: [{ type: 'shell', language: 'bash', command }],
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
