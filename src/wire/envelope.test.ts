import { describe, expect, test } from 'vitest';
import { toolError } from '../kosong/tool.js';
import { EVENT_TYPES, type WireEvent, wireEvent } from './events.js';
import type { WireMessage } from './message.js';
import { wireMessageToJSON } from './message-json.js';
import {
  hookResponseFromJSON,
  questionResponseFromJSON,
  WireParseError,
  wireMessageFromJSON,
} from './parse.js';
import { ApprovalRequest, HookRequest, QuestionRequest, REQUEST_TYPES, ToolCallRequest } from './requests.js';

const usage = { input_other: 10, output: 5, input_cache_read: 100, input_cache_creation: 0 };

/** One example of every event type. */
const events: WireEvent[] = [
  wireEvent('TurnBegin', {
    user_input: [
      { type: 'text', text: 'look' },
      { type: 'image_url', image_url: { url: 'data:x' } },
    ],
  }),
  wireEvent('SteerInput', { user_input: 'also this' }),
  wireEvent('TurnEnd', {}),
  wireEvent('StepBegin', { n: 3 }),
  wireEvent('StepInterrupted', {}),
  wireEvent('StepRetry', {
    n: 1,
    next_attempt: 2,
    max_attempts: 3,
    wait_s: 0.4,
    error_type: 'APIConnectionError',
  }),
  wireEvent('HookTriggered', { event: 'PreToolUse', target: 'Shell', hook_count: 2 }),
  wireEvent('HookResolved', {
    event: 'PreToolUse',
    target: 'Shell',
    action: 'block',
    reason: 'no',
    duration_ms: 7,
  }),
  wireEvent('CompactionBegin', {}),
  wireEvent('CompactionEnd', {}),
  wireEvent('MCPLoadingBegin', {}),
  wireEvent('MCPLoadingEnd', {}),
  wireEvent('StatusUpdate', {
    context_usage: 0.5,
    token_usage: usage,
    mcp_status: {
      loading: false,
      connected: 1,
      total: 2,
      tools: 3,
      servers: [{ name: 'fs', status: 'connected', tools: ['read'] }],
    },
  }),
  wireEvent('Notification', {
    id: 'n1',
    category: 'task',
    type: 'task.completed',
    source_kind: 'background_task',
    source_id: 'bash-1',
    title: 'done',
    body: 'ok',
    severity: 'success',
    created_at: 1.5,
    payload: { exit_code: 0, tags: ['a', null] },
  }),
  wireEvent('ContentPart', { type: 'think', think: 'hm', encrypted: 'sig' }),
  wireEvent('ToolCall', {
    type: 'function',
    id: 'c1',
    function: { name: 'Shell', arguments: '{}' },
    extras: { k: 1 },
  }),
  wireEvent('ToolCallPart', { type: 'tool_call_part', arguments_part: '{"a' }),
  wireEvent('ToolResult', {
    tool_call_id: 'c1',
    return_value: {
      is_error: false,
      output: [{ type: 'text', text: 'out' }],
      message: 'm',
      display: [
        { type: 'brief', text: 'b' },
        {
          type: 'diff',
          path: 'a',
          old_text: 'x',
          new_text: 'y',
          old_start: 2,
          new_start: 2,
          is_summary: true,
        },
        { type: 'todo', items: [{ title: 't', status: 'pending' }] },
        { type: 'shell', language: 'bash', command: 'ls' },
        { type: 'background_task', task_id: 'bash-1', kind: 'bash', status: 'running', description: 'd' },
        { type: 'custom/thing', data: { x: [1] } },
      ],
    },
  }),
  wireEvent('ApprovalResponse', { request_id: 'r1', response: 'reject', feedback: 'use git' }),
  wireEvent('SubagentEvent', {
    parent_tool_call_id: 'c7',
    agent_id: 'a1234abcd',
    subagent_type: 'coder',
    event: wireEvent('StepBegin', { n: 1 }),
  }),
  wireEvent('PlanDisplay', { content: '# Plan', file_path: '/p.md' }),
  wireEvent('ToolOutput', { tool_call_id: 'c1', text: 'out\n' }),
  wireEvent('BtwBegin', { id: 'b1', question: 'why?' }),
  wireEvent('BtwEnd', { id: 'b1', response: 'because' }),
  wireEvent('RewindDone', {
    turn: 1,
    redo: false,
    code_rewound: true,
    conversation_rewound: false,
    restored: ['a.txt'],
    removed: [],
    kept: [],
    skipped: [],
  }),
  wireEvent('GoalUpdated', {
    goal: {
      id: 'goal-1',
      objective: 'make the tests pass',
      status: 'active',
      check: 'npm test',
      reason: null,
      turns_used: 2,
      tokens_used: 1500,
      elapsed_ms: 42_000,
      max_turns: 10,
      max_tokens: null,
      max_time_ms: 1_800_000,
    },
  }),
  wireEvent('GoalUpdated', { goal: null }),
  wireEvent('ScheduleFired', {
    job_id: '0a1b2c3d',
    cron: null,
    recurring: false,
    coalesced_count: 1,
    stale: false,
  }),
];

const requests: WireMessage[] = [
  new ApprovalRequest({
    id: 'r1',
    tool_call_id: 'c1',
    sender: 'Shell',
    action: 'run command',
    description: 'Run `ls`',
    display: [{ type: 'shell', language: 'bash', command: 'ls' }],
    source_kind: 'background_agent',
    agent_id: 'a1',
  }),
  new ToolCallRequest({ id: 'c2', name: 'ext_tool', arguments: null }),
  new QuestionRequest({
    id: 'q1',
    tool_call_id: 'c3',
    questions: [
      {
        question: 'Which?',
        header: 'Pick',
        options: [{ label: 'A', description: 'first' }],
        multi_select: true,
        body: '',
        other_label: '',
        other_description: '',
      },
    ],
  }),
  new HookRequest({
    id: 'h1',
    subscription_id: 's1',
    event: 'Stop',
    target: '',
    input_data: { session_id: 'x' },
  }),
];

/** The data of a message, with absent and null fields treated alike (reading fills in nulls). */
const data = (message: WireMessage): unknown =>
  JSON.parse(JSON.stringify({ type: message.type, payload: message.payload }), (_, value) =>
    value === null ? undefined : value,
  );

describe('wire message JSON', () => {
  test('the examples cover every event and request type', () => {
    expect(new Set(events.map((e) => e.type))).toEqual(new Set(EVENT_TYPES));
    expect(requests.map((r) => r.type)).toEqual(REQUEST_TYPES);
  });

  test.each([...events, ...requests].map((m) => [m.type, m] as const))(
    '%s round-trips through JSON text',
    (_, message) => {
      const json = JSON.parse(JSON.stringify(wireMessageToJSON(message)));
      const back = wireMessageFromJSON(json);
      expect(data(back)).toEqual(data(message));
      expect(wireMessageToJSON(back)).toEqual(json);
    },
  );

  test('optional fields are written as null and defaults are filled, as pydantic does', () => {
    expect(wireMessageToJSON(wireEvent('StatusUpdate', { plan_mode: true }))).toEqual({
      type: 'StatusUpdate',
      payload: {
        context_usage: null,
        context_tokens: null,
        max_context_tokens: null,
        token_usage: null,
        message_id: null,
        plan_mode: true,
        mcp_status: null,
      },
    });
    expect(wireMessageToJSON(requests[0]!).payload).toEqual({
      id: 'r1',
      tool_call_id: 'c1',
      sender: 'Shell',
      action: 'run command',
      description: 'Run `ls`',
      source_kind: 'background_agent',
      source_id: null,
      agent_id: 'a1',
      subagent_type: null,
      source_description: null,
      display: [{ type: 'shell', language: 'bash', command: 'ls' }],
    });
    expect(
      wireMessageToJSON(
        wireEvent('StepRetry', { n: 1, next_attempt: 2, max_attempts: 3, wait_s: 1, error_type: 'E' }),
      ).payload,
    ).toMatchObject({ status_code: null });
    expect(wireMessageToJSON(wireEvent('BtwEnd', { id: 'b', error: 'boom' })).payload).toEqual({
      id: 'b',
      response: null,
      error: 'boom',
    });
  });

  test('content parts, tool calls and tool results carry kosong data in Kimi CLI field names', () => {
    expect(wireMessageToJSON(wireEvent('ContentPart', { type: 'think', think: 't' }))).toEqual({
      type: 'ContentPart',
      payload: { type: 'think', think: 't', encrypted: null },
    });
    expect(
      wireMessageToJSON(
        wireEvent('ToolCall', { type: 'function', id: 'c', function: { name: 'f', arguments: null } }),
      ),
    ).toEqual({
      type: 'ToolCall',
      payload: { type: 'function', id: 'c', function: { name: 'f', arguments: null }, extras: null },
    });
    // Our fragment's internal tag stays out of the payload.
    expect(
      wireMessageToJSON(wireEvent('ToolCallPart', { type: 'tool_call_part', arguments_part: 'x' })),
    ).toEqual({
      type: 'ToolCallPart',
      payload: { arguments_part: 'x' },
    });
    expect(
      wireMessageToJSON(
        wireEvent('ToolResult', { tool_call_id: 'c', return_value: toolError('bad', 'Failed') }),
      ),
    ).toEqual({
      type: 'ToolResult',
      payload: {
        tool_call_id: 'c',
        return_value: {
          is_error: true,
          output: '',
          message: 'bad',
          display: [{ type: 'brief', text: 'Failed' }],
          extras: null,
        },
      },
    });
  });

  test('display blocks: defaults filled on read, unknown kinds kept as {type, data}', () => {
    const parsed = wireMessageFromJSON({
      type: 'ToolResult',
      payload: {
        tool_call_id: 'c',
        return_value: {
          is_error: false,
          output: '',
          message: '',
          display: [
            { type: 'diff', path: 'a', old_text: '', new_text: 'x' },
            { type: 'acp/hide_output' },
            { type: 'chart', points: [1, 2] },
            { type: 'kept', data: { already: true } },
          ],
        },
      },
    });
    expect(parsed.type === 'ToolResult' && parsed.payload.return_value.display).toEqual([
      { type: 'diff', path: 'a', old_text: '', new_text: 'x', old_start: 1, new_start: 1, is_summary: false },
      { type: 'acp/hide_output', data: {} },
      { type: 'chart', data: { points: [1, 2] } },
      { type: 'kept', data: { already: true } },
    ]);
    // A block a tool made in-process with loose fields is written in the same `{type, data}` form.
    const written = wireMessageToJSON(
      wireEvent('ToolResult', {
        tool_call_id: 'c',
        return_value: { is_error: false, output: '', message: '', display: [{ type: 'chart', points: [1] }] },
      }),
    );
    expect((written.payload.return_value as { display: unknown }).display).toEqual([
      { type: 'chart', data: { points: [1] } },
    ]);
  });

  test('legacy shapes load: ApprovalRequestResolved, task_tool_call_id, approval without display', () => {
    expect(
      wireMessageFromJSON({
        type: 'ApprovalRequestResolved',
        payload: { request_id: 'r', response: 'approve' },
      }),
    ).toEqual({
      type: 'ApprovalResponse',
      payload: { request_id: 'r', response: 'approve', feedback: '' },
    });
    const subagent = wireMessageFromJSON({
      type: 'SubagentEvent',
      payload: { task_tool_call_id: 'task_1', event: { type: 'TurnEnd', payload: {} } },
    });
    expect(subagent).toEqual({
      type: 'SubagentEvent',
      payload: {
        parent_tool_call_id: 'task_1',
        agent_id: null,
        subagent_type: null,
        event: { type: 'TurnEnd', payload: {} },
      },
    });
    const approval = wireMessageFromJSON({
      type: 'ApprovalRequest',
      payload: { id: 'r', tool_call_id: 't', sender: 'Shell', action: 'a', description: 'd' },
    });
    expect(approval).toBeInstanceOf(ApprovalRequest);
    expect(approval.payload).toMatchObject({ display: [] });
  });

  test('bad input is rejected with an error naming the type and the field', () => {
    const bad = (value: unknown): string => {
      try {
        wireMessageFromJSON(value);
      } catch (error) {
        expect(error).toBeInstanceOf(WireParseError);
        return (error as Error).message;
      }
      throw new Error('expected a parse error');
    };
    expect(bad({ type: 'StepBegin', payload: { n: 'one' } })).toMatch(
      /^Invalid StepBegin payload: field `n`: .*number/,
    );
    expect(bad({ type: 'Nope', payload: {} })).toBe('Unknown wire message type: "Nope"');
    expect(bad({ payload: {} })).toMatch(/^Invalid wire message envelope: field `type`/);
    expect(bad({ type: 'TurnEnd', payload: 'x' })).toMatch(/field `payload`/);
    expect(bad({ type: 'ContentPart', payload: { type: 'text' } })).toMatch(
      /^Invalid ContentPart payload: field `text`/,
    );
    expect(
      bad({
        type: 'ToolResult',
        payload: {
          tool_call_id: 'c',
          return_value: {
            is_error: false,
            output: '',
            message: '',
            display: [{ type: 'todo', items: [{ title: 't', status: 'later' }] }],
          },
        },
      }),
    ).toMatch(/field `return_value.display.0.items.0.status`/);
    expect(
      bad({
        type: 'SubagentEvent',
        payload: { parent_tool_call_id: 'p', event: { type: 'StepBegin', payload: {} } },
      }),
    ).toMatch(/^Invalid SubagentEvent payload: field `event`: Invalid StepBegin payload: field `n`/);
    expect(
      bad({
        type: 'SubagentEvent',
        payload: { event: { type: 'ToolCallRequest', payload: { id: 'c', name: 'n', arguments: null } } },
      }),
    ).toMatch(/request type ToolCallRequest/);
  });

  test('the responses a wire client sends are validated too', () => {
    expect(questionResponseFromJSON({ request_id: 'q', answers: { 'Which?': 'A' } })).toEqual({
      request_id: 'q',
      answers: { 'Which?': 'A' },
    });
    expect(hookResponseFromJSON({ request_id: 'h' })).toEqual({
      request_id: 'h',
      action: 'allow',
      reason: '',
    });
    expect(() => hookResponseFromJSON({ request_id: 'h', action: 'maybe' })).toThrow(
      /Invalid HookResponse payload: field `action`/,
    );
  });
});
