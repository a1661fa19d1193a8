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
