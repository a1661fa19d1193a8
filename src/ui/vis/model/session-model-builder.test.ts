import { describe, expect, it } from 'vitest';
import { SessionModelBuilder } from './session-model-builder.js';

const HEADER = JSON.stringify({ type: 'metadata', protocol_version: '1.10' });
const rec = (timestamp: number, type: string, payload: unknown = {}) =>
  JSON.stringify({ timestamp, message: { type, payload } });
const call = (id: string, name: string, args: unknown) => ({
  type: 'function',
  id,
  function: { name, arguments: JSON.stringify(args) },
});
/** A tool's successful return value, as the wire writes it. */
const done = (output: string) => ({ is_error: false, output, message: '', display: [] });
const usage = (input: number, output: number, cached = 0, context = 0.1) => ({
  context_usage: context,
  context_tokens: Math.round(context * 1000),
  token_usage: { input_other: input, output, input_cache_read: cached, input_cache_creation: 0 },
});

function build(lines: string[], terminated = true) {
  const builder = new SessionModelBuilder('s1', 'a title');
  for (const line of lines) builder.addLine(line);
  return builder.finish(terminated);
}

describe('SessionModelBuilder', () => {
  it('derives turns, steps, model and tool calls, tokens, retries and context from a run', () => {
    const model = build([
      HEADER,
      rec(100, 'TurnBegin', { user_input: 'first' }),
      rec(100.1, 'StepBegin', { n: 1 }),
      rec(100.2, 'ContentPart', { type: 'text', text: 'Let me look.' }),
      rec(100.3, 'ToolCall', call('c1', 'Shell', { command: 'echo hi' })),
      rec(100.3, 'StatusUpdate', usage(1200, 30, 100, 0.0123)),
      rec(101.5, 'ToolResult', { tool_call_id: 'c1', return_value: done('hi') }),
      rec(101.6, 'StepBegin', { n: 2 }),
      rec(101.7, 'StepRetry', {
        n: 2,
        next_attempt: 2,
        max_attempts: 3,
        wait_s: 0.3,
        error_type: 'APIStatusError',
        status_code: 500,
      }),
      rec(102.2, 'ContentPart', { type: 'text', text: 'Done' }),
      rec(102.2, 'StatusUpdate', usage(1300, 20, 0, 0.0132)),
      rec(102.3, 'TurnEnd'),
    ]);
    expect(model.protocolVersion).toBe('1.10');
    expect(model.eventCount).toBe(11);
    expect(model.running).toBe(false);
    expect(model.turns).toMatchObject([{ lane: 0, start: 100, end: 102.3, input: 'first', steps: 2 }]);
    expect(model.steps).toMatchObject([
      {
        n: 1,
        start: 100.1,
        end: 101.6,
        tokens: { input: 1200, output: 30, cached: 100 },
        toolCalls: 1,
        retries: 0,
      },
      { n: 2, start: 101.6, end: 102.3, tokens: { input: 1300, output: 20, cached: 0 }, retries: 1 },
    ]);
    const bars = model.spans.map((s) => [s.kind, s.label, s.start, s.end, s.isError ?? false]);
    expect(bars).toEqual([
      ['turn', 'turn 1: first', 100, 102.3, false],
      ['step', 'step 1', 100.1, 101.6, false],
      ['model', 'model call', 100.1, 100.3, false],
      ['tool', 'Shell echo hi', 100.3, 101.5, false],
      ['step', 'step 2', 101.6, 102.3, false],
      ['model', 'model call', 101.6, 101.7, true],
      ['model', 'model call (retry)', 101.7 + 0.3, 102.2, false],
    ]);
    expect(model.markers).toMatchObject([
      { kind: 'retry', label: 'retry 2/3: APIStatusError 500', event: 7 },
    ]);
    expect(model.context.map((p) => p.usage)).toEqual([0.0123, 0.0132]);
    expect(model.summary).toMatchObject({ turns: 1, steps: 2, toolCalls: 1, retries: 1 });
    expect(model.summary.seconds.tools).toBeCloseTo(1.2);
    expect(model.slowestTools).toEqual([{ name: 'Shell echo hi', seconds: expect.closeTo(1.2), span: 3 }]);
  });

  it('tolerates a torn last line, bad lines, unknown event types and a session still running', () => {
    const model = build(
      [
        HEADER,
        'not json',
        rec(1, 'TurnBegin', { user_input: [{ type: 'text', text: 'parts' }] }),
        rec(2, 'FutureEvent', { x: 1 }),
        JSON.stringify({ nothing: true }),
        rec(3, 'StepBegin', { n: 1 }),
        rec(4, 'ToolCall', call('a', 'ReadFile', { path: 'x' })),
        '{"timestamp": 5, "message": {"type": "ToolRes',
      ],
      false,
    );
    expect(model.tornTail).toBe(true);
    expect(model.running).toBe(true);
    expect(model.unknownTypes).toEqual({ FutureEvent: 1 });
    expect(model.problems.map((p) => p.line)).toEqual([2, 5, 8]);
    expect(model.turns[0]).toMatchObject({ input: 'parts', end: null });
    expect(model.spans.find((s) => s.kind === 'tool')).toMatchObject({ label: 'ReadFile x', end: null });
    expect(model.eventCount).toBe(7);
  });

  it('reads a streamed part from its head, yet sees a torn one', () => {
    const part = rec(2, 'ContentPart', { type: 'text', text: 'x'.repeat(50) });
    const whole = build(
      [
        HEADER,
        rec(1, 'TurnBegin', { user_input: 'x' }),
        rec(1, 'StepBegin', { n: 1 }),
        part,
        rec(3, 'TurnEnd'),
      ],
      true,
    );
    expect(whole).toMatchObject({ tornTail: false, eventCount: 4, end: 3, problems: [] });
    // The model call ended with its last streamed part, not with the turn.
    expect(whole.spans.find((s) => s.kind === 'model')?.end).toBe(2);
    const torn = build([HEADER, rec(1, 'TurnBegin', { user_input: 'x' }), part.slice(0, 70)], false);
    expect(torn).toMatchObject({ tornTail: true, eventCount: 2, end: 1 });
  });

  it('a bad last line of a file that ends with a newline is a problem, not a torn tail', () => {
    const model = build([HEADER, rec(1, 'TurnBegin', { user_input: 'x' }), '{"broken'], true);
    expect(model.tornTail).toBe(false);
    expect(model.problems).toEqual([{ line: 3, message: 'Not valid JSON.' }]);
  });

  it('shows approvals waited on, compactions, D-Mail reverts, steers and interrupts', () => {
    const model = build([
      rec(10, 'TurnBegin', { user_input: 'go' }),
      rec(10, 'StepBegin', { n: 1 }),
      rec(11, 'ToolCall', call('w', 'WriteFile', { path: 'a.txt' })),
      rec(11, 'ApprovalRequest', {
        id: 'r1',
        tool_call_id: 'w',
        sender: 'WriteFile',
        action: 'edit file',
        description: 'd',
      }),
      rec(15, 'ApprovalResponse', { request_id: 'r1', response: 'approve' }),
      rec(15.5, 'ToolResult', { tool_call_id: 'w', return_value: done('') }),
      rec(16, 'SteerInput', { user_input: 'also this' }),
      rec(16, 'StepBegin', { n: 2 }),
      rec(16, 'CompactionBegin'),
      rec(18, 'CompactionEnd'),
      rec(19, 'ToolCall', call('d', 'SendDMail', { message: 'back', checkpoint_id: 0 })),
      rec(19.5, 'ToolResult', { tool_call_id: 'd', return_value: done('') }),
      rec(20, 'StepBegin', { n: 3 }),
      rec(21, 'StepInterrupted'),
      rec(21, 'TurnEnd'),
    ]);
    const approval = model.spans.find((s) => s.kind === 'approval');
    expect(approval).toMatchObject({ start: 11, end: 15, label: 'approval: WriteFile edit file → approve' });
    expect(model.spans.find((s) => s.kind === 'compaction')).toMatchObject({ start: 16, end: 18 });
    expect(model.markers.map((m) => m.kind)).toEqual(['steer', 'compaction', 'dmail', 'interrupt']);
    expect(model.compactionTimes).toEqual([18]);
    expect(model.summary).toMatchObject({ approvals: 1, dmails: 1, compactions: 1 });
    expect(model.summary.seconds.waiting).toBe(4);
    // The write took 4.5 s, 4 of them waiting for the user.
    expect(model.summary.seconds.tools).toBeCloseTo(0.5 + 0.5);
  });

  it('puts subagents on nested lanes, their own subagents one deeper', () => {
    const sub = (agent: string, event: unknown, parent = 'agent-call') => ({
      parent_tool_call_id: parent,
      agent_id: agent,
      subagent_type: 'coder',
      event,
    });
    const model = build([
      rec(1, 'TurnBegin', { user_input: 'delegate' }),
      rec(1, 'StepBegin', { n: 1 }),
      rec(2, 'ToolCall', call('agent-call', 'Agent', { description: 'look around' })),
      rec(3, 'SubagentEvent', sub('a1', { type: 'TurnBegin', payload: { user_input: 'look' } })),
      rec(3, 'SubagentEvent', sub('a1', { type: 'StepBegin', payload: { n: 1 } })),
      rec(
        4,
        'SubagentEvent',
        sub('a1', {
          type: 'SubagentEvent',
          payload: sub('a2', { type: 'StepBegin', payload: { n: 1 } }, 'x'),
        }),
      ),
      rec(5, 'SubagentEvent', sub('a1', { type: 'StatusUpdate', payload: usage(50, 5, 0, 0.9) })),
      rec(6, 'SubagentEvent', sub('a1', { type: 'TurnEnd', payload: {} })),
      rec(7, 'ToolResult', { tool_call_id: 'agent-call', return_value: done('ok') }),
      rec(8, 'TurnEnd'),
    ]);
    expect(model.lanes.map((l) => [l.id, l.parent, l.depth])).toEqual([
      ['main', -1, 0],
      ['a1', 0, 1],
      ['a2', 1, 2],
    ]);
    expect(model.spans.find((s) => s.kind === 'subagent' && s.lane === 0)).toMatchObject({
      start: 3,
      end: 6,
    });
    expect(model.steps.filter((s) => s.lane === 1)).toMatchObject([{ tokens: { input: 50, output: 5 } }]);
    // A subagent's context is its own: the session's context line stays the main agent's.
    expect(model.context).toEqual([]);
    expect(model.summary).toMatchObject({ subagents: 2, steps: 1, turns: 1 });
  });

  it('builds a 10,000-step session with every step and tool call', () => {
    const builder = new SessionModelBuilder('big', 'big');
    builder.addLine(HEADER);
    builder.addLine(rec(0, 'TurnBegin', { user_input: 'long' }));
    for (let i = 0; i < 10_000; i++) {
      const t = 1 + i;
      builder.addLine(rec(t, 'StepBegin', { n: i + 1 }));
      builder.addLine(rec(t + 0.4, 'ToolCall', call(`c${i}`, 'Shell', { command: `echo ${i}` })));
      builder.addLine(rec(t + 0.4, 'StatusUpdate', usage(100, 10, 50, i / 10_000)));
      builder.addLine(
        rec(t + 0.4 + (i % 7) / 10, 'ToolResult', {
          tool_call_id: `c${i}`,
          return_value: done(''),
        }),
      );
    }
    builder.addLine(rec(10_002, 'TurnEnd'));
    const model = builder.finish(true);
    expect(model.steps).toHaveLength(10_000);
    expect(model.spans.filter((s) => s.kind === 'tool')).toHaveLength(10_000);
    expect(model.summary.tokens).toEqual({ input: 1_000_000, output: 100_000, cached: 500_000 });
    expect(model.slowestTools[0]!.seconds).toBeCloseTo(0.6);
  });
});

describe('a wire.jsonl written by Kimi CLI itself', () => {
  it('reads approvals, a retry, hooks, a subagent and a question', async () => {
    const { readFile } = await import('node:fs/promises');
    const text = await readFile(
      new URL('../../../wire/fixtures/kimi-cli-wire.jsonl', import.meta.url),
      'utf8',
    );
    const model = build(text.split('\n'));
    expect(model.problems).toEqual([]);
    expect(model.unknownTypes).toEqual({});
    expect(model.summary).toMatchObject({
      turns: 1,
      steps: 2,
      toolCalls: 2,
      retries: 1,
      approvals: 1,
      subagents: 1,
    });
    const approval = model.spans.find((s) => s.kind === 'approval' && s.label.startsWith('approval'));
    expect(approval).toMatchObject({ start: 1764543601.5, end: 1764543603.0 });
    expect(approval?.label).toContain('approve_for_session');
    expect(model.summary.seconds.waiting).toBeCloseTo(1.5 + (1764543605.2 - 1764543605.0));
    expect(model.lanes[1]).toMatchObject({ id: 'a1b2c3d4e', parent: 0 });
    expect(model.spans.filter((s) => s.end === null)).toEqual([]);
  });

  it('reads through the wire codec: a payload the wire would not accept is a problem, named', () => {
    const model = build([
      HEADER,
      rec(1, 'TurnBegin', { user_input: 'go' }),
      rec(2, 'StepBegin', { n: 'one' }),
      rec(3, 'ToolResult', { tool_call_id: 'c1', return_value: { is_error: false, output: '' } }),
      rec(4, 'TurnEnd'),
    ]);
    expect(model.problems.map((p) => p.line)).toEqual([3, 4]);
    expect(model.problems[0]!.message).toContain('StepBegin');
    expect(model.problems[1]!.message).toContain('return_value.message');
    expect(model.steps).toEqual([]);
    expect(model.turns).toMatchObject([{ input: 'go', end: 4 }]);
  });
});
