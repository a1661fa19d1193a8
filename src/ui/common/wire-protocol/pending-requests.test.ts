import { describe, expect, it } from 'vitest';
import { ApprovalRequest } from '../../../wire/requests.js';
import { PendingRequests } from './pending-requests.js';

function approval(id: string, agentId: string | null): ApprovalRequest {
  return new ApprovalRequest({
    id,
    tool_call_id: `call-${id}`,
    sender: 'Shell',
    action: 'run command',
    description: `Run \`echo ${id}\``,
    display: [],
    agent_id: agentId,
  });
}

describe('PendingRequests: several agents asking at once', () => {
  it('applies each answer to the request it answers, never to another', () => {
    const refused: string[] = [];
    const pending = new PendingRequests((why) => refused.push(why));
    const first = approval('req-a', 'a1');
    const second = approval('req-b', 'a2');
    pending.add(first);
    pending.add(second);
    // Answering the second first (the client's queue order is its own): the first still waits.
    expect(
      pending.answer({
        kind: 'response',
        id: 'req-b',
        ok: true,
        result: { request_id: 'req-b', response: 'approve' },
      }),
    ).toBe(true);
    expect(second.state).toMatchObject({ status: 'resolved', answer: { response: 'approve' } });
    expect(first.isPending).toBe(true);
    // An answer again to a settled entry does nothing to the other.
    expect(
      pending.answer({
        kind: 'response',
        id: 'req-b',
        ok: true,
        result: { request_id: 'req-b', response: 'approve' },
      }),
    ).toBe(false);
    expect(first.isPending).toBe(true);
  });

  it('rejects an entry whose answer names another request (a mixed-up queue never approves)', () => {
    const refused: string[] = [];
    const pending = new PendingRequests((why) => refused.push(why));
    const first = approval('req-a', 'a1');
    const second = approval('req-b', 'a2');
    pending.add(first);
    pending.add(second);
    pending.answer({
      kind: 'response',
      id: 'req-a',
      ok: true,
      result: { request_id: 'req-b', response: 'approve' },
    });
    expect(first.state).toMatchObject({ status: 'resolved', answer: { response: 'reject' } });
    expect(second.isPending).toBe(true);
    expect(refused).toEqual([expect.stringContaining('names request req-b')]);
    // Kimi CLI's clients may leave request_id out: the JSON-RPC id says which request it answers.
    pending.answer({ kind: 'response', id: 'req-b', ok: true, result: { response: 'approve' } });
    expect(second.state).toMatchObject({ status: 'resolved', answer: { response: 'approve' } });
  });
});
