import { describe, expect, it } from 'vitest';
import { TuiSplash } from './splash.js';
import { HeadlessTerminal } from './test-support/headless-terminal.js';

describe('TuiSplash (the prompt shown while the session is built)', () => {
  it('draws the prompt at once, below what the terminal showed, and erases it without a trace', async () => {
    const terminal = new HeadlessTerminal(80, 24);
    terminal.write('$ kimi-ts\r\n');
    const splash = new TuiSplash(false, terminal);
    await terminal.settled();
    // Drawn synchronously (before the session's work starts), and the scrollback is kept.
    expect(terminal.lines()[0]).toBe('$ kimi-ts');
    expect(terminal.lines().join('\n')).toContain('starting…');
    expect(terminal.lines().join('\n')).toContain('Enter sends');
    splash.abort();
    await terminal.settled();
    expect(terminal.lines()).toEqual(['$ kimi-ts']);
  });

  it('hands the keys pressed at it over to the next one to start the terminal', async () => {
    const terminal = new HeadlessTerminal(80, 24);
    let press: (data: string) => void = () => {};
    const start = terminal.start.bind(terminal);
    terminal.start = (onInput, onResize) => {
      press = onInput;
      start(onInput, onResize);
    };
    const splash = new TuiSplash(false, terminal);
    press('h');
    // Shift-Tab (plan mode) pressed blind, before the session could show its state: dropped.
    press('\x1b[Z');
    press('i');
    press('\r');
    await terminal.settled();
    splash.handOff();
    const received: string[] = [];
    splash.terminal.start(
      (data) => received.push(data),
      () => {},
    );
    press('!');
    expect(received).toEqual(['h', 'i', '\r', '!']);
    await terminal.settled();
    expect(terminal.lines().join('\n')).not.toContain('starting…');
    splash.terminal.close();
  });
});
