import { describe, expect, test } from 'vitest';
import { toolOk } from '../kosong/tool.js';
import { ApprovalRequest, HookRequest, QuestionRequest, ToolCallRequest } from './requests.js';
import { Wire } from './wire.js';

const approval = (id = 'r1'): ApprovalRequest =>
  new ApprovalRequest({
    id,
    tool_call_id: 't1',
    sender: 'Shell',
    action: 'run command',
    description: 'ls',
    display: [],
  });

describe('requests', () => {
  test('a subscriber resolves a request and the awaiting side gets the answer', async () => {
    const wire = new Wire();
    const ui = wire.subscribe({ merge: false });
    const answering = (async () => {
      for await (const message of ui) {
        if (message instanceof ApprovalRequest) message.resolve('approve_for_session', 'fine');
      }
    })();
    const request = approval();
    wire.send(request);
    expect(await request.wait()).toEqual({ response: 'approve_for_session', feedback: 'fine' });
    expect(request.state).toEqual({
      status: 'resolved',
      answer: { response: 'approve_for_session', feedback: 'fine' },
    });
    expect(wire.pendingRequests).toEqual([]);
    wire.shutdown();
    await answering;
  });

  test('the first of resolve and cancel wins', async () => {
    const request = approval();
    expect(request.resolve('approve')).toBe(true);
    expect(request.cancel('too late')).toBe(false);
    expect(request.resolve('reject')).toBe(false);
    expect(await request.wait()).toEqual({ response: 'approve', feedback: '' });
  });

  test('each request type has its own cancel outcome', async () => {
    const a = approval();
    const t = new ToolCallRequest({ id: 'c1', name: 'ext', arguments: '{}' });
    const q = new QuestionRequest({ id: 'q1', tool_call_id: 'c2', questions: [] });
    const h = new HookRequest({
      id: 'h1',
      subscription_id: 's',
      event: 'PreToolUse',
      target: 'Shell',
      input_data: {},
    });
    const waits = Promise.all([a.wait(), t.wait(), q.wait(), h.wait()]);
    for (const request of [a, t, q, h]) request.cancel('The turn ended.');
    expect(await waits).toEqual([
      { response: 'reject', feedback: '' },
      {
        is_error: true,
        output: '',
        message: 'The turn ended.',
        display: [{ type: 'brief', text: 'Cancelled' }],
      },
      {},
      { action: 'allow', reason: '' },
    ]);
    expect(a.state).toMatchObject({ status: 'cancelled', reason: 'The turn ended.' });
  });

  test('resolve forms of the other request types', async () => {
    const t = ToolCallRequest.fromToolCall({
      type: 'function',
      id: 'c9',
      function: { name: 'ext', arguments: '{"a":1}' },
    });
    expect(t.payload).toEqual({ id: 'c9', name: 'ext', arguments: '{"a":1}' });
    t.resolve(toolOk('done'));
    expect(await t.wait()).toEqual(toolOk('done'));
    const h = new HookRequest({ id: 'h1', subscription_id: '', event: 'Stop', target: '', input_data: {} });
    h.resolve('block', 'not yet');
    expect(await h.wait()).toEqual({ action: 'block', reason: 'not yet' });
    const q = new QuestionRequest({ id: 'q1', tool_call_id: 'c', questions: [] });
    q.resolve({ 'Which?': 'A, B' });
    expect(await q.wait()).toEqual({ 'Which?': 'A, B' });
  });

  test('an aborted wait rejects but leaves the request pending for others', async () => {
    const request = approval();
    const controller = new AbortController();
    const aborted = request.wait(controller.signal);
    const other = request.wait();
    controller.abort(new Error('gave up'));
    await expect(aborted).rejects.toThrow('gave up');
    expect(request.isPending).toBe(true);
    request.resolve('reject', 'no');
    expect(await other).toEqual({ response: 'reject', feedback: 'no' });
    await expect(request.wait(AbortSignal.abort())).resolves.toEqual({ response: 'reject', feedback: 'no' });
    await expect(approval().wait(AbortSignal.abort(new Error('already')))).rejects.toThrow('already');
  });

  test('cancelling the pending requests of a wire releases every waiter', async () => {
    const wire = new Wire();
    const requests = [
      approval('r1'),
      approval('r2'),
      new QuestionRequest({ id: 'q', tool_call_id: 'c', questions: [] }),
    ];
    for (const request of requests) wire.send(request);
    (requests[1] as ApprovalRequest).resolve('approve');
    expect(wire.pendingRequests.map((r) => r.id)).toEqual(['r1', 'q']);
    const waits = Promise.all(requests.map((r) => r.wait()));
    wire.cancelPendingRequests('The run was cancelled.');
    expect(await waits).toEqual([
      { response: 'reject', feedback: '' },
      { response: 'approve', feedback: '' },
      {},
    ]);
    expect(wire.pendingRequests).toEqual([]);
  });
});
