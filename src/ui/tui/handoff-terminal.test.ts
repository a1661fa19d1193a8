import type { Terminal } from '@mariozechner/pi-tui';
import { describe, expect, it } from 'vitest';
import { HandoffTerminal } from './handoff-terminal.js';

function fakeTerminal() {
  const log: string[] = [];
  let input: ((data: string) => void) | undefined;
  const terminal = {
    start: (onInput: (data: string) => void) => {
      input = onInput;
      log.push('start');
    },
    stop: () => {
      input = undefined;
      log.push('stop');
    },
    write: () => {},
  } as unknown as Terminal;
  return { terminal, log, press: (data: string) => input?.(data) };
}

describe('HandoffTerminal', () => {
  it('stays raw across the first stop and gives keys pressed in the gap to the next handler', () => {
    const inner = fakeTerminal();
    const handoff = new HandoffTerminal(inner.terminal);
    const splash: string[] = [];
    const tui: string[] = [];
    handoff.start(
      (d) => splash.push(d),
      () => {},
    );
    inner.press('a');
    handoff.replay(['a']);
    handoff.stop();
    inner.press('b');
    handoff.start(
      (d) => tui.push(d),
      () => {},
    );
    inner.press('c');
    expect(splash).toEqual(['a']);
    expect(tui).toEqual(['a', 'b', 'c']);
    expect(inner.log).toEqual(['start']);
    // Later stops are real (an external editor needs the terminal back), and start again.
    handoff.stop();
    expect(inner.log).toEqual(['start', 'stop']);
    handoff.start(
      () => {},
      () => {},
    );
    handoff.close();
    handoff.close();
    expect(inner.log).toEqual(['start', 'stop', 'start', 'stop']);
  });
});
