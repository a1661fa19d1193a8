import { describe, expect, it, vi } from 'vitest';
import { trustedLiteral } from '../../util/sanitize-terminal.js';
import { ChoicePicker, PICKER_ARM_DELAY_MS } from './choice-picker.js';
import { tuiStyle } from './tui-style.js';

const ENTER = '\r';
const DOWN = '\x1b[B';
const ESC = '\x1b';

function picker() {
  let now = 1000;
  const items = [
    { value: 'a', label: trustedLiteral('first') },
    { value: 'b', label: trustedLiteral('second') },
  ];
  const p = new ChoicePicker(trustedLiteral('Pick'), items, tuiStyle(false), 0, 'chooses', () => now);
  return {
    p,
    wait: (ms: number) => {
      now += ms;
    },
  };
}

describe('ChoicePicker', () => {
  it('drops keys pressed before it was drawn and in its first moments on screen', () => {
    const { p, wait } = picker();
    // Before the first frame: typed ahead.
    expect(p.handleKey(DOWN)).toEqual({ done: false });
    expect(p.handleKey(ENTER)).toEqual({ done: false });
    expect(p.render(80).join('\n')).toContain('  …');
    wait(PICKER_ARM_DELAY_MS - 1);
    expect(p.handleKey(DOWN)).toEqual({ done: false });
    expect(p.handleKey(ENTER)).toEqual({ done: false });
    wait(1);
    expect(p.render(80).join('\n')).toContain('↑/↓ choose · Enter chooses · Esc leaves');
    // Nothing typed ahead moved the selection: Enter now takes the first item.
    expect(p.handleKey(ENTER)).toEqual({ done: true, chosen: 'a' });
  });

  it('moves and chooses once armed', () => {
    const { p, wait } = picker();
    p.render(80);
    wait(PICKER_ARM_DELAY_MS);
    expect(p.handleKey(DOWN)).toEqual({ done: false });
    expect(p.handleKey(ENTER)).toEqual({ done: true, chosen: 'b' });
  });

  it('leaves with Esc or Ctrl-C at once, even before it is armed (leaving does nothing)', () => {
    const first = picker();
    expect(first.p.handleKey(ESC)).toEqual({ done: true, chosen: null });
    const second = picker();
    second.p.render(80);
    expect(second.p.handleKey('\x03')).toEqual({ done: true, chosen: null });
  });

  it('asks for a redraw once armed, counted from its first frame (however late that came)', () => {
    vi.useFakeTimers();
    try {
      const { p } = picker();
      const armed = vi.fn();
      p.arm.onArmed = armed;
      vi.advanceTimersByTime(5000); // not drawn yet: nothing scheduled
      expect(armed).not.toHaveBeenCalled();
      p.render(80);
      p.render(80);
      vi.advanceTimersByTime(PICKER_ARM_DELAY_MS - 1);
      expect(armed).not.toHaveBeenCalled();
      vi.advanceTimersByTime(20);
      expect(armed).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
