import { describe, expect, it } from 'vitest';
import {
  applyStatusUpdate,
  emptyStatus,
  formatStatus,
  type StatusFacts,
  StatusLineView,
  withModes,
  withStreamed,
  withSubagentUsage,
} from './status-line.js';
import { tuiStyle } from './tui-style.js';

describe('status line', () => {
  it('shows the model, the context in use and the tokens summed over steps', () => {
    let facts = emptyStatus('e2e-model');
    expect(formatStatus(facts)).toBe('e2e-model · ↑0 ↓0 · cost n/a');
    const usage = { input_other: 1000, input_cache_read: 200, input_cache_creation: 0, output: 50 };
    facts = applyStatusUpdate(facts, {
      context_usage: 0.123,
      context_tokens: 12300,
      max_context_tokens: 100000,
      token_usage: usage,
    });
    facts = applyStatusUpdate(facts, { token_usage: usage, plan_mode: true });
    expect(formatStatus(facts)).toBe('e2e-model · plan · context 12% (12.3k/100.0k) · ↑2.4k ↓100 · cost n/a');
  });

  it('while a turn runs: spinner and elapsed time after the badges, the streamed output estimated', () => {
    let facts: StatusFacts = { ...emptyStatus('m'), yolo: true, runningSince: 0, activity: 'working…' };
    facts = withStreamed(facts, { type: 'ContentPart', payload: { type: 'text', text: 'x'.repeat(41) } });
    expect(formatStatus(facts, 65_000)).toMatch(
      /^m · yolo · [⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] 1:05 working… · ↑0 ↓~11 · cost n\/a$/,
    );
    const usage = { input_other: 10, input_cache_read: 0, input_cache_creation: 0, output: 9 };
    facts = applyStatusUpdate(facts, { token_usage: usage });
    expect(formatStatus({ ...facts, runningSince: null, activity: null })).toBe(
      'm · yolo · ↑10 ↓9 · cost n/a',
    );
  });

  it('keeps what an update leaves out', () => {
    const facts = applyStatusUpdate(emptyStatus(null), { context_usage: 0.5 });
    expect(applyStatusUpdate(facts, { context_usage: null, plan_mode: null }).contextUsage).toBe(0.5);
  });

  it('shows MCP servers connecting or failed, and running background tasks', () => {
    let facts = applyStatusUpdate(emptyStatus('m'), {
      mcp_status: {
        loading: true,
        connected: 1,
        total: 3,
        tools: 4,
        servers: [
          { name: 'a', status: 'connected', tools: [] },
          { name: 'b', status: 'failed', tools: [] },
          { name: 'c', status: 'connecting', tools: [] },
        ],
      },
    });
    facts = { ...facts, backgroundTasks: 2, yolo: true };
    expect(formatStatus(facts)).toBe(
      'm · yolo · ↑0 ↓0 · cost n/a · mcp 1/3 connecting… (1 failed) · ⚙ tasks: 2',
    );
  });

  it('shows the cost from the model’s prices per million tokens, cache reads at their own price', () => {
    let facts: StatusFacts = { ...emptyStatus('m'), price: { input: 2, output: 10, cache_read: 0.5 } };
    expect(formatStatus(facts)).toBe('m · ↑0 ↓0 · cost $0.0000');
    const usage = {
      input_other: 100_000,
      input_cache_read: 200_000,
      input_cache_creation: 0,
      output: 10_000,
    };
    facts = applyStatusUpdate(facts, { token_usage: usage });
    // 0.1 M × $2 + 0.2 M × $0.5 + 0.01 M × $10 = $0.40
    expect(formatStatus(facts)).toBe('m · ↑300.0k ↓10.0k · cost $0.4000');
    for (let i = 0; i < 3; i++) facts = applyStatusUpdate(facts, { token_usage: usage });
    expect(formatStatus(facts)).toContain('cost $1.60');
  });

  it("adds a subagent's step to the tokens and the cost at the session's price", () => {
    let facts: StatusFacts = { ...emptyStatus('m'), price: { input: 2, output: 10 } };
    facts = applyStatusUpdate(facts, { context_usage: 0.25, context_tokens: 250 });
    facts = withSubagentUsage(facts, {
      input_other: 100_000,
      input_cache_read: 0,
      input_cache_creation: 0,
      output: 10_000,
    });
    // 0.1 M × $2 + 0.01 M × $10 = $0.30; the session's context stays its own.
    expect(formatStatus(facts)).toBe('m · context 25% · ↑100.0k ↓10.0k · cost $0.3000');
  });

  it('shows running subagents', () => {
    expect(formatStatus({ ...emptyStatus('m'), subagents: 2 })).toBe('m · ↑0 ↓0 · cost n/a · subagents: 2');
  });

  it('shows the yolo, afk, plan and sandbox badges right after the model, from the session modes', () => {
    const off = { yolo: false, afk: false, sandbox: null };
    expect(formatStatus(withModes(emptyStatus('m'), off, false))).toBe('m · ↑0 ↓0 · cost n/a');
    const all = withModes(
      emptyStatus('m'),
      {
        yolo: true,
        afk: true,
        sandbox: { state: 'on', mode: 'workspace-write', network: false, blocksUnixSockets: true },
      },
      true,
    );
    expect(formatStatus(all)).toBe('m · yolo · afk · plan · sandbox · ↑0 ↓0 · cost n/a');
    const readOnly = withModes(
      emptyStatus('m'),
      { ...off, sandbox: { state: 'on', mode: 'read-only', network: true, blocksUnixSockets: true } },
      false,
    );
    expect(formatStatus(readOnly)).toBe('m · sandbox read-only +net · ↑0 ↓0 · cost n/a');
    const unavailable = withModes(
      emptyStatus('m'),
      {
        ...off,
        sandbox: { state: 'unavailable', mode: 'workspace-write', network: false, blocksUnixSockets: false },
      },
      false,
    );
    expect(formatStatus(unavailable)).toBe('m · no sandbox · ↑0 ↓0 · cost n/a');
    // Switched off again: the badges go.
    expect(formatStatus(withModes(all, off, false))).toBe('m · ↑0 ↓0 · cost n/a');
  });

  it('draws the badges in colour, the rest dimmed; without colour, plain text', () => {
    const facts = withModes(emptyStatus('m'), { yolo: true, afk: false, sandbox: null }, true);
    const colored = new StatusLineView(tuiStyle(true), 'm');
    colored.facts = facts;
    const [line] = colored.render(80);
    expect(line).toContain('\x1b[1m\x1b[33myolo\x1b[39m\x1b[22m');
    expect(line).toContain('\x1b[1m\x1b[36mplan\x1b[39m\x1b[22m');
    const plain = new StatusLineView(tuiStyle(false), 'm');
    plain.facts = facts;
    // biome-ignore lint/suspicious/noControlCharactersInRegex: no escape may be in it
    expect(plain.render(80)[0]).not.toMatch(/\x1b/);
    expect(plain.render(80)[0]).toContain('m · yolo · plan ·');
  });
});
