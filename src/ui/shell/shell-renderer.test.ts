import { describe, expect, it } from 'vitest';
import { streamedPartEvent, wireEvent } from '../../wire/events.js';
import { ansiStyle, wantsColor } from '../common/ansi-style.js';
import { ShellRenderer, type ShellRendererOptions } from './shell-renderer.js';

function render(options: ShellRendererOptions, feed: (r: ShellRenderer) => void): string {
  let out = '';
  const renderer = new ShellRenderer((text) => (out += text), '/work', options);
  feed(renderer);
  renderer.endLine();
  return out;
}

const thinkThenAnswer = (r: ShellRenderer) => {
  r.handle(streamedPartEvent({ type: 'think', think: 'Let me ' }));
  r.handle(streamedPartEvent({ type: 'think', think: 'look.' }));
  r.handle(streamedPartEvent({ type: 'text', text: 'The answer.' }));
};

describe('ShellRenderer', () => {
  it('streams thinking on its own line before the answer, or shows one indicator, or hides it', () => {
    expect(render({ thinking: 'stream' }, thinkThenAnswer)).toBe('Let me look.\nThe answer.\n');
    expect(render({ thinking: 'indicator' }, thinkThenAnswer)).toBe('(thinking…)\nThe answer.\n');
    expect(render({ thinking: 'off' }, thinkThenAnswer)).toBe('The answer.\n');
  });

  it('colours thinking, tools and outcomes only with a colour style', () => {
    const feed = (r: ShellRenderer) => {
      thinkThenAnswer(r);
      r.handle(
        streamedPartEvent({
          type: 'function',
          id: 'c1',
          function: { name: 'Shell', arguments: '{"command":"ls"}' },
        }),
      );
      r.handle(
        wireEvent('ToolResult', {
          tool_call_id: 'c1',
          return_value: {
            is_error: true,
            output: '',
            message: 'Command failed with exit code: 2.',
            display: [],
          },
        }),
      );
    };
    const colored = render({ thinking: 'stream', style: ansiStyle(true) }, feed);
    expect(colored).toContain('\x1b[2;3mLet me \x1b[23;22m');
    expect(colored).toContain('• \x1b[36mShell\x1b[39m \x1b[2mls\x1b[22m\n');
    expect(colored).toContain('\x1b[31m✗\x1b[39m Command failed with exit code: 2.');
    // Without colour: the plain text the pipe-mode tests see.
    expect(render({ thinking: 'stream' }, feed)).toBe(
      'Let me look.\nThe answer.\n• Shell ls\n  ✗ Command failed with exit code: 2.\n',
    );
  });

  it('keeps the latest status for the line after a turn', () => {
    const renderer = new ShellRenderer(() => {}, '/work');
    expect(renderer.statusLine()).toBeNull();
    renderer.handle(
      wireEvent('StatusUpdate', {
        context_usage: 0.1234,
        context_tokens: 32_350,
        max_context_tokens: 262_144,
      }),
    );
    renderer.handle(wireEvent('StatusUpdate', { plan_mode: true, context_usage: null }));
    expect(renderer.statusLine()).toBe('context 12% (32.4k of 262.1k tokens) · plan mode');
  });

  it('colours only a terminal, and never with NO_COLOR', () => {
    expect(wantsColor(true, {})).toBe(true);
    expect(wantsColor(true, { NO_COLOR: '1' })).toBe(false);
    expect(wantsColor(true, { NO_COLOR: '' })).toBe(true);
    expect(wantsColor(false, {})).toBe(false);
  });
});

describe('ShellRenderer goal line', () => {
  const goal = (turns: number, tokens: number, status: 'active' | 'blocked', objective = 'fix the build') =>
    wireEvent('GoalUpdated', {
      goal: {
        id: 'g1',
        objective,
        status,
        check: null,
        reason: status === 'blocked' ? 'Turn budget reached: 2 of 2 turns.' : null,
        turns_used: turns,
        tokens_used: tokens,
        elapsed_ms: 0,
        max_turns: 2,
        max_tokens: null,
        max_time_ms: null,
      },
    });

  it('prints a line when the state or turn count moves, not for every step’s tokens', () => {
    const out = render({ thinking: 'off' }, (r) => {
      r.handle(goal(0, 0, 'active'));
      r.handle(goal(1, 0, 'active'));
      r.handle(goal(1, 300, 'active'));
      r.handle(goal(2, 600, 'blocked'));
    });
    expect(out).toBe(
      [
        'goal: fix the build — active · turns 0/2',
        'goal: fix the build — active · turns 1/2',
        'goal: fix the build — blocked (Turn budget reached: 2 of 2 turns.) · turns 2/2',
        '',
      ].join('\n'),
    );
  });

  it('never sends the objective’s control characters to the terminal', () => {
    const out = render({ thinking: 'off' }, (r) =>
      r.handle(goal(0, 0, 'active', 'evil \u001b]0;pwned\u0007 title')),
    );
    expect(out).not.toContain('\u001b');
    expect(out).not.toContain('\u0007');
  });
});

describe('ShellRenderer: a scheduled prompt', () => {
  it('shows the schedule line and echoes the prompt nobody typed, with nothing hidden', () => {
    const out = render({ thinking: 'off' }, (r) => {
      r.handle(
        wireEvent('ScheduleFired', {
          job_id: '0a1b2c3d',
          cron: null,
          recurring: false,
          coalesced_count: 1,
          stale: false,
        }),
      );
      r.handle(wireEvent('TurnBegin', { user_input: 'check\u200b\u001b]0;pwned\u0007' }));
      r.handle(wireEvent('TurnBegin', { user_input: 'typed' }));
    });
    expect(out).toBe('⏰ scheduled prompt 0a1b2c3d (once)\n› check⟨U+200B⟩␛]0;pwned␇\n');
  });
});
