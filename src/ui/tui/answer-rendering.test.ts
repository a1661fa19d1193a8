import { TUI } from '@mariozechner/pi-tui';
import { describe, expect, it } from 'vitest';
import { AnswerView } from './answer-view.js';
import { HeadlessTerminal } from './test-support/headless-terminal.js';
import { tuiStyle } from './tui-style.js';

const ANSWER = [
  '# Plan',
  '',
  'First we read the **config**, then we change `main.ts`. This paragraph is long enough to wrap across the narrow terminal more than once.',
  '',
  '```ts',
  'export function add(a: number, b: number): number {',
  '  return a + b;',
  '}',
  '```',
  '',
  '- one',
  '- two',
  '',
  '| name | value |',
  '| --- | --- |',
  '| a | 1 |',
  '',
  ...Array.from({ length: 30 }, (_, i) => `Line ${i} of the long tail.\n`),
  'The end.',
].join('\n');

/** Renders `answer` in a TUI on a headless terminal, streamed in `chunk`-sized pieces; returns the rows. */
async function streamed(answer: string, chunk: number, color: boolean): Promise<string[]> {
  const terminal = new HeadlessTerminal(60, 15);
  const tui = new TUI(terminal);
  const view = new AnswerView(tuiStyle(color));
  tui.addChild(view);
  tui.start();
  for (let i = 0; i < answer.length; i += chunk) {
    const written = terminal.nextWrite();
    view.append(answer.slice(i, i + chunk));
    tui.requestRender();
    await written;
  }
  await terminal.settled();
  tui.stop();
  await terminal.settled();
  return terminal.lines();
}

describe('streamed answer rendering (headless terminal)', () => {
  it('ends up exactly as the whole answer rendered at once, scrollback included', async () => {
    const expected = new AnswerView(tuiStyle(false));
    expected.append(ANSWER);
    const once = expected.render(60).map((line) => line.trimEnd());
    for (const chunk of [13, 64]) {
      expect(await streamed(ANSWER, chunk, false)).toEqual(once);
    }
  });

  it('renders Markdown, not its syntax, and wraps to the width', async () => {
    const rows = await streamed(ANSWER, 50, true);
    expect(rows).toContain('Plan');
    expect(rows.some((row) => row.includes('**'))).toBe(false);
    expect(rows.every((row) => row.length <= 60)).toBe(true);
    expect(rows).toContain('  export function add(a: number, b: number): number {');
  });
});
