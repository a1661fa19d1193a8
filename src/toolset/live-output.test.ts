import { afterEach, describe, expect, it, vi } from 'vitest';
import { Wire } from '../wire/wire.js';
import { LIVE_OUTPUT_INTERVAL_MS, LIVE_OUTPUT_MAX_CHARS, LiveOutput } from './live-output.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('LiveOutput', () => {
  it('sends one ToolOutput per interval at most, with only the latest characters', () => {
    vi.useFakeTimers();
    const wire = new Wire();
    const seen = wire.subscribe({ merge: false });
    {
      const live = new LiveOutput('c1', wire);
      for (let i = 0; i < 10_000; i++) live.report(`line ${i}\n`);
      expect(seen.takeAll()).toEqual([]);
      vi.advanceTimersByTime(LIVE_OUTPUT_INTERVAL_MS);
      const [first, ...rest] = seen.takeAll();
      expect(rest).toEqual([]);
      expect(first?.type).toBe('ToolOutput');
      const text = first?.type === 'ToolOutput' ? first.payload.text : '';
      expect(text.length).toBe(LIVE_OUTPUT_MAX_CHARS);
      expect(text.endsWith('line 9999\n')).toBe(true);
      live.report('last\n');
      live.close();
      expect(seen.takeAll()).toMatchObject([
        { type: 'ToolOutput', payload: { tool_call_id: 'c1', text: 'last\n' } },
      ]);
      // Closed: nothing more, and no timer left.
      live.report('late\n');
      expect(vi.getTimerCount()).toBe(0);
    }
  });

  it('does nothing outside a run', () => {
    const live = new LiveOutput('c1', null);
    live.report('x');
    expect(() => live.close()).not.toThrow();
  });
});
