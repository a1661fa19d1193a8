import { describe, expect, it } from 'vitest';
import { PromptQueue } from './prompt-queue.js';
import { tuiStyle } from './tui-style.js';

describe('PromptQueue', () => {
  it('gives the prompts back in the order sent, showing those still waiting', () => {
    const queue = new PromptQueue(tuiStyle(false));
    queue.push('first');
    queue.push('second');
    expect(queue.view.render(80)).toEqual(['queued: first', 'queued: second']);
    expect(queue.shift()).toBe('first');
    expect(queue.view.render(80)).toEqual(['queued: second']);
    expect(queue.shift()).toBe('second');
    expect(queue.shift()).toBeUndefined();
    expect(queue.view.render(80)).toEqual(['']);
  });

  it('shows a queued prompt inert: its escape sequences do not reach the terminal', () => {
    const queue = new PromptQueue(tuiStyle(false));
    queue.push('hi \x1b[2J\x1b]52;c;cHduZWQ=\x07 there');
    const shown = queue.view.render(80).join('\n');
    expect(shown).toContain('hi');
    expect(shown).not.toContain('\x1b[2J');
    expect(shown).not.toContain('\x1b]52');
  });

  it('clear() forgets them all', () => {
    const queue = new PromptQueue(tuiStyle(false));
    queue.push('a');
    queue.clear();
    expect(queue.shift()).toBeUndefined();
  });
});
