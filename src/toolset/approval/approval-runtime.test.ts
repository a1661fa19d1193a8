import { describe, expect, it } from 'vitest';
import { ApprovalRuntime, type ApprovalRuntimeEvent } from './approval-runtime.js';
import type { ApprovalSource } from './approval-source.js';

const turn = (id: string): ApprovalSource => ({ kind: 'foreground_turn', id });

function create(runtime: ApprovalRuntime, action = 'run command', source = turn('t1')) {
  return runtime.createRequest({
    tool_call_id: 'c1',
    sender: 'Shell',
    action,
    description: `Run \`${action}\``,
    source,
  });
}

describe('ApprovalRuntime', () => {
  it('keeps records with status and timestamps and lists pending ones in creation order', () => {
    const runtime = new ApprovalRuntime();
    const a = create(runtime, 'a');
    const b = create(runtime, 'b');
    const c = create(runtime, 'c');
    expect(a).toMatchObject({ status: 'pending', display: [], source: turn('t1') });
    expect(typeof a.created_at).toBe('number');
    expect(runtime.resolve(b.id, { response: 'approve' })).toBe(true);
    expect(runtime.resolve(b.id, { response: 'reject' })).toBe(false);
    expect(runtime.listPending().map((r) => r.action)).toEqual(['a', 'c']);
    expect(runtime.get(b.id)).toMatchObject({
      status: 'resolved',
      response: 'approve',
      feedback: '',
      scope: 'exact',
    });
    expect(runtime.get(b.id)).toHaveProperty('resolved_at');
    void c;
  });

  it('lets many observers wait on one request; one giving up does not strand the others', async () => {
    const runtime = new ApprovalRuntime();
    const record = create(runtime);
    const quitter = new AbortController();
    const first = runtime.waitForResponse(record.id);
    const second = runtime.waitForResponse(record.id, { signal: quitter.signal });
    const third = runtime.waitForResponse(record.id);
    quitter.abort(new Error('observer left'));
    await expect(second).rejects.toThrow('observer left');
    expect(runtime.get(record.id)?.status).toBe('pending');
    runtime.resolve(record.id, { response: 'reject', feedback: 'use git instead' });
    const answers = await Promise.all([first, third]);
    expect(answers.map((a) => [a.response, a.feedback])).toEqual([
      ['reject', 'use git instead'],
      ['reject', 'use git instead'],
    ]);
    // A late observer gets the settled record at once.
    expect((await runtime.waitForResponse(record.id)).status).toBe('resolved');
  });

  it('an explicit timeout cancels the request for every observer with "approval timed out"', async () => {
    const runtime = new ApprovalRuntime();
    const record = create(runtime);
    const patient = runtime.waitForResponse(record.id);
    const timed = runtime.waitForResponse(record.id, { timeoutMs: 5 });
    const [a, b] = await Promise.all([patient, timed]);
    expect([a.status, a.response, a.feedback]).toEqual(['cancelled', 'reject', 'approval timed out']);
    expect(b).toBe(a);
  });

  it('cancels everything of one source and nothing else', async () => {
    const runtime = new ApprovalRuntime();
    const mine = [create(runtime, 'a', turn('t1')), create(runtime, 'b', turn('t1'))];
    const subagentRun = create(runtime, 'c', { kind: 'foreground_turn', id: 't2', agent_id: 'a1234' });
    const background = create(runtime, 'd', { kind: 'background_agent', id: 't1' });
    const waiting = runtime.waitForResponse(mine[0]!.id);
    expect(runtime.cancelBySource('foreground_turn', 't1', 'turn ended')).toBe(2);
    expect(await waiting).toMatchObject({ status: 'cancelled', response: 'reject', feedback: 'turn ended' });
    expect(runtime.listPending().map((r) => r.id)).toEqual([subagentRun.id, background.id]);
  });

  it('tells subscribers of creation and resolution, and survives a throwing subscriber', () => {
    const runtime = new ApprovalRuntime();
    const events: ApprovalRuntimeEvent['type'][] = [];
    runtime.subscribe(() => {
      throw new Error('broken UI');
    });
    const stop = runtime.subscribe((event) => events.push(event.type));
    const record = create(runtime);
    runtime.resolve(record.id, { response: 'approve' });
    stop();
    create(runtime);
    expect(events).toEqual(['request_created', 'request_resolved']);
  });

  it('rejects waiting on an unknown request', async () => {
    await expect(new ApprovalRuntime().waitForResponse('nope')).rejects.toThrow(/Unknown approval request/);
  });
});
