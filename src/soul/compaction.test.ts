import { describe, expect, it } from 'vitest';
import { type Message, message } from '../kosong/message.js';
import { compactionRequest, planCompaction, shouldAutoCompact } from './compaction.js';

describe('shouldAutoCompact', () => {
  it.each<[number, number, number, number, boolean]>([
    [84_000, 100_000, 0.85, 1_000, false],
    [85_000, 100_000, 0.85, 1_000, true],
    [212_144, 262_144, 0.85, 50_000, true], // the reserved headroom rule fires first for 256k models
    [212_143, 262_144, 0.85, 50_000, false],
    [10, 0, 0.85, 50_000, false],
    [50_000, 100_000, 0.85, 50_000, true], // a reserve of half the window still applies
    [1_000, 32_768, 0.85, 50_000, false], // a reserve the window cannot hold is not applied...
    [27_853, 32_768, 0.85, 50_000, true], // ...the ratio alone decides
    [5_000, 60_000, 0.85, 50_000, false],
  ])('%i of %i (ratio %f, reserved %i) → %s', (tokens, max, ratio, reserved, expected) => {
    expect(shouldAutoCompact(tokens, max, ratio, reserved)).toBe(expected);
  });
});

describe('planCompaction', () => {
  const u = (t: string) => message('user', t);
  const a = (t: string) => message('assistant', t);
  const tool = (t: string): Message => ({
    role: 'tool',
    content: [{ type: 'text', text: t }],
    tool_call_id: 'c',
  });

  it('keeps the tail from the second-to-last user/assistant message, tool messages included', () => {
    const history = [u('1'), a('2'), u('3'), a('4'), tool('5'), u('6')];
    const plan = planCompaction(history);
    expect(plan.toCompact).toEqual(history.slice(0, 3));
    expect(plan.preserved).toEqual(history.slice(3));
  });

  it('does nothing when there is nothing older than the tail', () => {
    expect(planCompaction([u('1'), a('2')]).toCompact).toEqual([]);
    expect(planCompaction([u('1')]).toCompact).toEqual([]);
  });

  it('builds one request with every message and the instructions', () => {
    const request = compactionRequest([u('hello'), a('world')], 'focus on tests');
    const text = request.content[0]?.type === 'text' ? request.content[0].text : '';
    expect(text).toContain('## Message 1\nRole: user\nContent:\nhello');
    expect(text).toContain('## Message 2\nRole: assistant\nContent:\nworld');
    expect(text).toContain('<current_focus>');
    expect(text).toContain("User's custom compaction instruction:\nfocus on tests");
  });
});
