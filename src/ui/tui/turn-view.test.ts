import { describe, expect, it } from 'vitest';
import { toolOk } from '../../kosong/tool.js';
import type { StatusUpdate, WireEvent } from '../../wire/events.js';
import { ApprovalRequest, type QuestionItem, QuestionRequest, ToolCallRequest } from '../../wire/requests.js';
import { tuiStyle } from './tui-style.js';
import { TurnView } from './turn-view.js';

const style = tuiStyle(false);
const view = (extra: Partial<ConstructorParameters<typeof TurnView>[0]> = {}) =>
  new TurnView({ style, workDir: '/work', thinking: 'stream', ...extra });
const text = (t: string): WireEvent => ({ type: 'ContentPart', payload: { type: 'text', text: t } });
const screen = (v: TurnView) =>
  v
    .render(100)
    .map((line) => line.trimEnd())
    .join('\n');

describe('TurnView', () => {
  it('shows a call with its key argument as the arguments stream, then its summary', () => {
    const v = view();
    v.handle({
      type: 'ToolCall',
      payload: { type: 'function', id: 'c1', function: { name: 'ReadFile', arguments: '{"pa' } },
    });
    expect(screen(v)).toMatch(/^. ReadFile$/);
    v.handle({
      type: 'ToolCallPart',
      payload: { type: 'tool_call_part', arguments_part: 'th": "/work/src/ma' },
    });
    expect(screen(v)).toMatch(/ReadFile src\/ma$/);
    v.handle({ type: 'ToolCallPart', payload: { type: 'tool_call_part', arguments_part: 'in.ts"}' } });
    expect(v.isBusy).toBe(true);
    v.handle({
      type: 'ToolResult',
      payload: { tool_call_id: 'c1', return_value: toolOk('a\nb\nc', '', 'Read 3 lines') },
    });
    expect(screen(v)).toBe('✓ ReadFile src/main.ts\n  └ Read 3 lines');
    expect(v.isBusy).toBe(false);
  });

  it('folds thinking when the answer starts and renders the answer as Markdown', () => {
    const v = view();
    v.handle({ type: 'ContentPart', payload: { type: 'think', think: 'step one\nstep two' } });
    expect(screen(v)).toBe('∴ thinking…\n  step one\n  step two');
    v.handle(text('# Title\n\nSome **bold** text.'));
    expect(screen(v)).toBe('∴ thought (2 lines)\n\nTitle\n\nSome bold text.');
  });

  it('a retried step loses its partial output and shows why it is retried', () => {
    const v = view();
    v.handle({ type: 'StepBegin', payload: { n: 1 } });
    v.handle(text('half an answ'));
    v.handle({
      type: 'StepRetry',
      payload: {
        n: 1,
        next_attempt: 2,
        max_attempts: 3,
        wait_s: 1.5,
        error_type: 'APIStatusError',
        status_code: 503,
      },
    });
    v.handle(text('The whole answer.'));
    expect(screen(v)).toBe(
      '↻ APIStatusError (HTTP 503): retrying in 1.5s (attempt 2 of 3)\n\nThe whole answer.',
    );
  });

  it('nests a subagent’s calls under the call that started it', () => {
    const v = view();
    v.handle({
      type: 'ToolCall',
      payload: {
        type: 'function',
        id: 'a1',
        function: { name: 'Agent', arguments: '{"description":"explore"}' },
      },
    });
    const inner: WireEvent = {
      type: 'ToolCall',
      payload: { type: 'function', id: 'x', function: { name: 'Glob', arguments: '{"pattern":"*.ts"}' } },
    };
    v.handle({
      type: 'SubagentEvent',
      payload: { parent_tool_call_id: 'a1', agent_id: 'g', subagent_type: 'coder', event: inner },
    });
    expect(v.render(60)[1]).toMatch(/^ {4}. Glob \*\.ts$/);
  });

  it('keeps the subagents of one swarm call apart, each under its agent id', () => {
    const v = view();
    v.handle({
      type: 'ToolCall',
      payload: { type: 'function', id: 's1', function: { name: 'AgentSwarm', arguments: '{}' } },
    });
    const from = (agent: string, event: WireEvent): WireEvent => ({
      type: 'SubagentEvent',
      payload: { parent_tool_call_id: 's1', agent_id: agent, subagent_type: 'coder', event },
    });
    // Interleaved fragments: each agent's text stays whole in its own place.
    v.handle(from('a1', text('first half of one, ')));
    v.handle(from('a2', text('first half of two, ')));
    v.handle(from('a1', text('rest of one')));
    v.handle(from('a2', text('rest of two')));
    expect(screen(v).split('\n').slice(1)).toEqual([
      '    agent a1',
      '      first half of one, rest of one',
      '    agent a2',
      '      first half of two, rest of two',
    ]);
    expect(v.runningSubagents).toBe(1);
  });

  it('passes status to the status line and questions to the panels; refuses what it cannot answer', () => {
    const statuses: StatusUpdate[] = [];
    const asked: string[] = [];
    const v = view({ onStatus: (s) => statuses.push(s), onRequest: (r) => asked.push(r.id) });
    v.handle({ type: 'StatusUpdate', payload: { context_usage: 0.5 } });
    const approval = new ApprovalRequest({
      id: 'r',
      tool_call_id: 'c',
      sender: 'Shell',
      action: 'a',
      description: 'd',
      display: [],
    });
    v.handle(approval);
    const external = new ToolCallRequest({ id: 't', name: 'X', arguments: '{}' });
    v.handle(external);
    expect(statuses).toEqual([{ context_usage: 0.5 }]);
    expect(asked).toEqual(['r']);
    expect(external.isPending).toBe(false);
  });

  it('shows model text inert', () => {
    const v = view();
    v.handle(text('a\x1b[2Jb\x07'));
    expect(screen(v)).toBe('a␛[2Jb␇');
  });

  it('stops the spinner of a call its step ended without running', () => {
    const v = view();
    v.handle({ type: 'StepBegin', payload: { n: 1 } });
    v.handle({
      type: 'ToolCall',
      payload: { type: 'function', id: 'c1', function: { name: 'Shell', arguments: '{"command":"ls"}' } },
    });
    v.handle({ type: 'StepBegin', payload: { n: 2 } });
    expect(v.isBusy).toBe(false);
    expect(screen(v)).toBe('· Shell ls\n  └ not run');
  });

  it('shows a running call’s last output lines inert, and the summary once it ends', () => {
    const v = view();
    v.handle({
      type: 'ToolCall',
      payload: { type: 'function', id: 'c1', function: { name: 'Shell', arguments: '{"command":"make"}' } },
    });
    const lines = Array.from({ length: 8 }, (_, i) => `step ${i + 1}`).join('\n');
    v.handle({ type: 'ToolOutput', payload: { tool_call_id: 'c1', text: `${lines}\n` } });
    v.handle({ type: 'ToolOutput', payload: { tool_call_id: 'c1', text: '50%\r100% \x1b]0;pwned\x07\n' } });
    const running = screen(v);
    expect(running).toContain('│ step 8');
    expect(running).not.toContain('step 4');
    expect(running).toContain('│ 100% ␛]0;pwned␇');
    expect(running).not.toContain('50%');
    v.handle({ type: 'ToolResult', payload: { tool_call_id: 'c1', return_value: toolOk('', '', 'Built') } });
    expect(screen(v)).toBe('✓ Shell make\n  └ Built');
  });

  it('shows a subagent’s calls nested under its Agent call, live output included', () => {
    const v = view();
    v.handle({
      type: 'ToolCall',
      payload: {
        type: 'function',
        id: 'a1',
        function: { name: 'Agent', arguments: '{"description":"look"}' },
      },
    });
    const nested = (event: WireEvent): WireEvent => ({
      type: 'SubagentEvent',
      payload: { parent_tool_call_id: 'a1', agent_id: 'x', subagent_type: 'coder', event },
    });
    v.handle(
      nested({
        type: 'ToolCall',
        payload: { type: 'function', id: 'n1', function: { name: 'Shell', arguments: '{"command":"ls"}' } },
      }),
    );
    v.handle(nested({ type: 'ToolOutput', payload: { tool_call_id: 'n1', text: 'file-a\n' } }));
    expect(v.runningSubagents).toBe(1);
    expect(screen(v)).toMatch(/Agent look\n {4}. Shell ls\n {6}│ file-a/);
  });

  it('shows a plan for approval as rendered Markdown', () => {
    const v = view();
    v.handle({
      type: 'PlanDisplay',
      payload: { content: '# The plan\n\n1. **first**\n2. second\n', file_path: '/p.md' },
    });
    const shown = screen(v);
    expect(shown).toContain('Plan · /p.md');
    expect(shown).toContain('The plan');
    expect(shown).not.toContain('# The plan');
    expect(shown).not.toContain('**first**');
    expect(shown).toMatch(/1\. first/);
  });

  it('hands the question asked right after a plan to its panel with the plan; no other question', () => {
    const asked: { request: string; plan: string | undefined }[] = [];
    const v = view({
      onRequest: (request, plan) => asked.push({ request: request.payload.id, plan: plan?.plan.file_path }),
    });
    const question: QuestionItem = {
      question: 'Approve this plan?',
      header: 'Plan',
      options: [{ label: 'Approve', description: '' }],
      multi_select: false,
      body: '',
      other_label: 'Revise',
      other_description: '',
    };
    const ask = (id: string) => new QuestionRequest({ id, tool_call_id: 'c', questions: [question] });
    v.handle({ type: 'PlanDisplay', payload: { content: '1. do it', file_path: '/p.md' } });
    v.handle({ type: 'StatusUpdate', payload: { context_usage: 0.1 } });
    v.handle(ask('q1'));
    // A later question (no plan just before it) is an ordinary one.
    v.handle(ask('q2'));
    v.handle({ type: 'PlanDisplay', payload: { content: '2. other', file_path: '/q.md' } });
    v.handle(text('a word in between'));
    v.handle(ask('q3'));
    expect(asked).toEqual([
      { request: 'q1', plan: '/p.md' },
      { request: 'q2', plan: undefined },
      { request: 'q3', plan: undefined },
    ]);
  });
});

describe('TurnView goal line', () => {
  const goal = (turns: number, tokens: number, status: 'active' | 'paused'): WireEvent => ({
    type: 'GoalUpdated',
    payload: {
      goal: {
        id: 'g1',
        objective: 'green \u001b[31mbuild',
        status,
        check: 'npm test',
        reason: status === 'paused' ? 'Interrupted.' : null,
        turns_used: turns,
        tokens_used: tokens,
        elapsed_ms: 0,
        max_turns: 5,
        max_tokens: null,
        max_time_ms: null,
      },
    },
  });

  it('shows the goal line when its state or turns move, sanitised', () => {
    const v = view();
    v.handle(goal(1, 0, 'active'));
    v.handle(goal(1, 100, 'active'));
    v.handle(goal(1, 200, 'paused'));
    const shown = screen(v);
    expect(shown.match(/goal: /g)).toHaveLength(2);
    expect(shown).toContain('— active · turns 1/5');
    expect(shown).toContain('— paused (Interrupted.) · turns 1/5');
    expect(shown).not.toContain('\u001b');
  });
});

describe('TurnView: a scheduled prompt', () => {
  it('shows the schedule line, then the prompt with nothing hidden', () => {
    const v = view();
    v.handle({
      type: 'ScheduleFired',
      payload: { job_id: '0a1b2c3d', cron: '*/5 * * * *', recurring: true, coalesced_count: 3, stale: false },
    });
    v.handle({ type: 'TurnBegin', payload: { user_input: 'check CI\u200b\u200b\u001b[2J\u202e' } });
    v.handle({ type: 'TurnBegin', payload: { user_input: 'typed\u200b' } });
    const out = screen(v);
    expect(out).toContain('⏰ scheduled prompt 0a1b2c3d (cron "*/5 * * * *", 3 missed fires in one)');
    expect(out).toContain('› check CI⟨U+200B ×2⟩␛[2J⟨U+202E⟩');
    expect(out).not.toContain('\u001b');
    // Only the scheduled turn's input is revealed; a typed one is shown as typed.
    expect(out).toContain('› typed\u200b');
  });
});
