import { describe, expect, it } from 'vitest';
import type { ApprovalRequestData } from '../../wire/request-payloads.js';
import { approvalQueueLine, askingAgentLabel } from './asking-agent.js';

const request = (extra: Partial<ApprovalRequestData> = {}): ApprovalRequestData => ({
  id: 'r1',
  tool_call_id: 'c1',
  sender: 'Shell',
  action: 'run command',
  description: 'Run `ls`',
  display: [],
  ...extra,
});

describe('the asking agent in the approval queue', () => {
  it('leaves the main agent unmarked and names a subagent by type, id and description', () => {
    expect(askingAgentLabel(request())).toBeNull();
    expect(askingAgentLabel(request({ agent_id: '', source_kind: 'foreground_turn' }))).toBeNull();
    expect(
      askingAgentLabel(
        request({ agent_id: 'a1b2c3d4', subagent_type: 'coder', source_description: 'Fix\n the tests' }),
      ),
    ).toBe('agent coder a1b2c3d4 — Fix the tests');
    expect(
      askingAgentLabel(request({ agent_id: 'a9', source_kind: 'background_agent', subagent_type: 'coder' })),
    ).toBe('background agent coder a9');
    expect(askingAgentLabel(request({ agent_id: 'a9', source_description: 'x'.repeat(100) }))).toMatch(
      /^agent a9 — x{47}…$/,
    );
  });

  it('says the position only when more than one waits', () => {
    expect(approvalQueueLine(request(), 1, 1)).toBeNull();
    expect(approvalQueueLine(request(), 1, 3)).toBe('1 of 3');
    expect(approvalQueueLine(request({ agent_id: 'a1', subagent_type: 'coder' }), 2, 3)).toBe(
      '2 of 3 · agent coder a1',
    );
    expect(approvalQueueLine(request({ agent_id: 'a1' }), 1, 1)).toBe('agent a1');
  });
});
