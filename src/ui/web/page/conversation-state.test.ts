import { describe, expect, it } from 'vitest';
import {
  type ConversationAction,
  type ConversationState,
  EMPTY_CONVERSATION,
  reduceConversation,
} from './conversation-state.js';
import type { WireEvent } from './wire-types.js';

const event = (e: WireEvent): ConversationAction => ({ kind: 'event', event: e });
const run = (actions: ConversationAction[], from: ConversationState = EMPTY_CONVERSATION) =>
  actions.reduce(reduceConversation, from);

const approvalPayload = {
  id: 'ap-1',
  tool_call_id: 'call-1',
  sender: 'Shell',
  action: 'run command',
  description: 'Run `ls`',
  display: [{ type: 'shell', language: 'bash', command: 'ls' }],
};

const turnWithTool: ConversationAction[] = [
  event({ type: 'TurnBegin', payload: { user_input: 'list files' } }),
  event({ type: 'StepBegin', payload: { n: 1 } }),
  event({ type: 'ContentPart', payload: { type: 'think', think: 'I should ' } }),
  event({ type: 'ContentPart', payload: { type: 'think', think: 'run ls.' } }),
  event({ type: 'ContentPart', payload: { type: 'text', text: 'Let me ' } }),
  event({ type: 'ContentPart', payload: { type: 'text', text: 'look.' } }),
  event({
    type: 'ToolCall',
    payload: { type: 'function', id: 'call-1', function: { name: 'Shell', arguments: '{"comm' } },
  }),
  event({ type: 'ToolCallPart', payload: { type: 'tool_call_part', arguments_part: 'and":"ls"}' } }),
];

describe('reduceConversation', () => {
  it('builds a turn from streamed parts, merging fragments', () => {
    const state = run(turnWithTool);
    expect(state.busy).toBe(true);
    expect(state.turns).toHaveLength(1);
    const [turn] = state.turns;
    expect(turn?.userInput).toBe('list files');
    expect(turn?.items.map((i) => i.kind)).toEqual(['think', 'text', 'tool']);
    expect(turn?.items[0]).toEqual({ kind: 'think', text: 'I should run ls.' });
    expect(turn?.items[2]).toMatchObject({
      kind: 'tool',
      name: 'Shell',
      args: '{"command":"ls"}',
      result: null,
    });
  });

  it('attaches a tool result to its call and ends the turn', () => {
    const state = run([
      ...turnWithTool,
      event({
        type: 'ToolResult',
        payload: {
          tool_call_id: 'call-1',
          return_value: { is_error: false, output: 'a.txt\n', message: 'ok', display: [] },
        },
      }),
      event({ type: 'ContentPart', payload: { type: 'text', text: 'Done.' } }),
      event({ type: 'TurnEnd', payload: {} }),
    ]);
    expect(state.busy).toBe(false);
    expect(state.turns[0]?.done).toBe(true);
    expect(state.turns[0]?.items[2]).toMatchObject({ result: { output: 'a.txt\n' } });
    expect(state.turns[0]?.items[3]).toEqual({ kind: 'text', text: 'Done.' });
  });

  it('keeps approvals until answered here or elsewhere', () => {
    let state = run([
      ...turnWithTool,
      { kind: 'request', rpcId: 'rpc-1', type: 'ApprovalRequest', payload: approvalPayload },
    ]);
    expect(state.approvals).toEqual([{ rpcId: 'rpc-1', request: approvalPayload }]);
    state = run(
      [
        event({
          type: 'ApprovalResponse',
          payload: { request_id: 'ap-1', response: 'approve', feedback: '' },
        }),
      ],
      state,
    );
    expect(state.approvals).toEqual([]);
    state = run(
      [
        {
          kind: 'request',
          rpcId: 'rpc-2',
          type: 'ApprovalRequest',
          payload: { ...approvalPayload, id: 'ap-2' },
        },
      ],
      state,
    );
    state = run([{ kind: 'answered', requestId: 'ap-2' }], state);
    expect(state.approvals).toEqual([]);
  });

  it('keeps the live id of a request that the replay sends again as history', () => {
    const live = run([
      { kind: 'request', rpcId: 'rpc-9', type: 'ApprovalRequest', payload: approvalPayload },
    ]);
    const replayed = run(
      [{ kind: 'request', rpcId: null, type: 'ApprovalRequest', payload: approvalPayload }],
      live,
    );
    expect(replayed.approvals).toEqual([{ rpcId: 'rpc-9', request: approvalPayload }]);
    const upgraded = run(
      [{ kind: 'request', rpcId: 'rpc-10', type: 'ApprovalRequest', payload: approvalPayload }],
      run([{ kind: 'request', rpcId: null, type: 'ApprovalRequest', payload: approvalPayload }]),
    );
    expect(upgraded.approvals).toEqual([{ rpcId: 'rpc-10', request: approvalPayload }]);
  });

  it('adds up token usage and keeps the latest context figures and plan mode', () => {
    const usage = { input_other: 100, output: 20, input_cache_read: 50, input_cache_creation: 0 };
    const state = run([
      event({
        type: 'StatusUpdate',
        payload: { token_usage: usage, context_usage: 0.25, context_tokens: 250, max_context_tokens: 1000 },
      }),
      event({ type: 'StatusUpdate', payload: { token_usage: usage, plan_mode: true } }),
    ]);
    expect(state.status).toEqual({
      contextUsage: 0.25,
      contextTokens: 250,
      maxContextTokens: 1000,
      tokensIn: 300,
      tokensOut: 40,
      tokensCached: 100,
      usage: { input_other: 200, output: 40, input_cache_read: 100, input_cache_creation: 0 },
      planMode: true,
    });
  });

  it("adds a subagent's step usage to the totals (not its context), and still nests its events", () => {
    const usage = { input_other: 100, output: 20, input_cache_read: 50, input_cache_creation: 0 };
    const sub = (inner: unknown): ConversationAction =>
      event({
        type: 'SubagentEvent',
        payload: { parent_tool_call_id: 'agent-1', agent_id: 'a1', subagent_type: 'coder', event: inner },
      } as WireEvent);
    const state = run([
      event({ type: 'TurnBegin', payload: { user_input: 'delegate' } }),
      event({
        type: 'ToolCall',
        payload: { type: 'function', id: 'agent-1', function: { name: 'Agent', arguments: '{}' } },
      }),
      event({ type: 'StatusUpdate', payload: { token_usage: usage, context_tokens: 250 } }),
      sub({
        type: 'StatusUpdate',
        payload: { token_usage: usage, context_tokens: 9000, context_usage: 0.9 },
      }),
      sub({ type: 'ContentPart', payload: { type: 'text', text: 'sub says hi' } }),
    ]);
    expect(state.status).toMatchObject({
      contextTokens: 250,
      tokensIn: 300,
      tokensOut: 40,
      usage: { input_other: 200, output: 40, input_cache_read: 100, input_cache_creation: 0 },
    });
    expect(state.turns[0]?.items[0]).toMatchObject({
      kind: 'tool',
      subagents: [{ agentId: 'a1', items: [{ kind: 'text', text: 'sub says hi' }] }],
    });
  });

  it('nests subagent events under the Agent call that started them', () => {
    const state = run([
      event({ type: 'TurnBegin', payload: { user_input: 'delegate' } }),
      event({
        type: 'ToolCall',
        payload: { type: 'function', id: 'agent-1', function: { name: 'Agent', arguments: '{}' } },
      }),
      event({
        type: 'SubagentEvent',
        payload: {
          parent_tool_call_id: 'agent-1',
          agent_id: 'a1',
          subagent_type: 'coder',
          event: { type: 'ContentPart', payload: { type: 'text', text: 'sub says hi' } },
        },
      }),
    ]);
    expect(state.turns[0]?.items[0]).toMatchObject({
      kind: 'tool',
      subagents: [{ agentId: 'a1', type: 'coder', items: [{ kind: 'text', text: 'sub says hi' }] }],
    });
  });

  it("keeps a swarm's subagents apart under its call, in the order they spoke", () => {
    const from = (agent: string, text: string) =>
      event({
        type: 'SubagentEvent',
        payload: {
          parent_tool_call_id: 'swarm-1',
          agent_id: agent,
          subagent_type: 'coder',
          event: { type: 'ContentPart', payload: { type: 'text', text } },
        },
      });
    const state = run([
      event({ type: 'TurnBegin', payload: { user_input: 'delegate' } }),
      event({
        type: 'ToolCall',
        payload: { type: 'function', id: 'swarm-1', function: { name: 'AgentSwarm', arguments: '{}' } },
      }),
      from('a1', 'one, '),
      from('a2', 'two, '),
      from('a1', 'one again'),
    ]);
    expect(state.turns[0]?.items[0]).toMatchObject({
      subagents: [
        { agentId: 'a1', items: [{ kind: 'text', text: 'one, one again' }] },
        { agentId: 'a2', items: [{ kind: 'text', text: 'two, ' }] },
      ],
    });
  });

  it('tracks background tasks from display blocks and notifications', () => {
    const state = run([
      event({ type: 'TurnBegin', payload: { user_input: 'bg' } }),
      event({
        type: 'ToolResult',
        payload: {
          tool_call_id: 'c',
          return_value: {
            is_error: false,
            output: '',
            message: '',
            display: [
              {
                type: 'background_task',
                task_id: 't1',
                kind: 'bash',
                status: 'running',
                description: 'sleep',
              },
            ],
          },
        },
      }),
      event({
        type: 'Notification',
        payload: {
          id: 'n1',
          category: 'task',
          type: 'task.completed',
          source_kind: 'background_task',
          source_id: 't1',
          title: 'Task done',
          body: '',
          severity: 'info',
          created_at: 0,
          payload: {},
        },
      }),
    ]);
    expect(state.tasks).toEqual([{ id: 't1', kind: 'bash', status: 'completed', description: 'sleep' }]);
  });

  it('records the plan shown and resets to empty', () => {
    const state = run([event({ type: 'PlanDisplay', payload: { content: '# Plan', file_path: '/p.md' } })]);
    expect(state.plan).toEqual({ content: '# Plan', file_path: '/p.md' });
    expect(run([{ kind: 'reset' }], state)).toBe(EMPTY_CONVERSATION);
  });

  it('closes a replayed approval once its call has a result', () => {
    const state = run([
      ...turnWithTool,
      { kind: 'request', rpcId: 'rpc-1', type: 'ApprovalRequest', payload: approvalPayload },
      event({
        type: 'ToolResult',
        payload: {
          tool_call_id: 'call-1',
          return_value: { is_error: false, output: '', message: '', display: [] },
        },
      }),
    ]);
    expect(state.approvals).toEqual([]);
  });

  it('clears waiting panels when the turn ends', () => {
    const state = run([
      ...turnWithTool,
      { kind: 'request', rpcId: 'rpc-1', type: 'ApprovalRequest', payload: approvalPayload },
      event({ type: 'TurnEnd', payload: {} }),
    ]);
    expect(state.approvals).toEqual([]);
  });
});

describe('live tool output (ToolOutput)', () => {
  it('collects a running call’s output as text until its result arrives', () => {
    const state = run([
      ...turnWithTool,
      event({ type: 'ToolOutput', payload: { tool_call_id: 'call-1', text: 'a\nb' } }),
      event({
        type: 'ToolOutput',
        payload: { tool_call_id: 'call-1', text: '<img src=x onerror=alert(1)>\n' },
      }),
      event({ type: 'ToolOutput', payload: { tool_call_id: 'no-such-call', text: 'lost' } }),
    ]);
    const call = state.turns[0]!.items.find((item) => item.kind === 'tool');
    expect(call).toMatchObject({
      kind: 'tool',
      liveOutput: 'a\nb<img src=x onerror=alert(1)>\n',
      result: null,
    });
  });

  it('keeps only the latest characters of a chatty command', () => {
    const chunks = Array.from({ length: 50 }, (_, i) =>
      event({
        type: 'ToolOutput',
        payload: { tool_call_id: 'call-1', text: `${String(i).padStart(4, '0')}`.repeat(100) },
      }),
    );
    const call = run([...turnWithTool, ...chunks]).turns[0]!.items.find((item) => item.kind === 'tool');
    expect(call?.kind === 'tool' && call.liveOutput.length).toBe(8000);
    expect(call?.kind === 'tool' && call.liveOutput.endsWith('0049')).toBe(true);
  });
});

describe('reduceConversation: the goal', () => {
  const goal = (status: 'active' | 'complete' | 'paused', turns = 1) => ({
    id: 'goal-1',
    objective: '<b>fix</b> the build',
    status,
    check: null,
    reason: null,
    turns_used: turns,
    tokens_used: 10,
    elapsed_ms: 1000,
    max_turns: 3,
    max_tokens: null,
    max_time_ms: null,
  });
  const goalEvent = (g: ReturnType<typeof goal> | null) =>
    event({ type: 'GoalUpdated', payload: { goal: g } });

  it('follows GoalUpdated; a completed goal stays until the next turn begins, a cleared one goes at once', () => {
    let state = run([
      event({ type: 'TurnBegin', payload: { user_input: '/goal fix' } }),
      goalEvent(goal('active')),
    ]);
    expect(state.goal?.status).toBe('active');
    state = run([goalEvent(goal('active', 2)), goalEvent(goal('complete', 2)), goalEvent(null)], state);
    expect(state.goal).toMatchObject({ status: 'complete', turns_used: 2 });
    state = run([event({ type: 'TurnBegin', payload: { user_input: 'next' } })], state);
    expect(state.goal).toBeNull();
    state = run(
      [goalEvent(goal('paused')), event({ type: 'TurnBegin', payload: { user_input: 'x' } })],
      state,
    );
    expect(state.goal?.status).toBe('paused');
    expect(run([goalEvent(null)], state).goal).toBeNull();
  });
});
