import { AnswerView } from './answer-view.js';
import type { TuiStyle } from './tui-style.js';

/** An answer with each kind of block the renderer has: what the warm-up streams through it. */
const SAMPLE = [
  '## Heading\n\nSome **bold**, *italic*, `code` and a [link](https://example.com).\n\n',
  '```ts\nexport const x = (a: number): number => a * 2;\n```\n\n',
  '- one\n- two\n  1. nested\n\n> quoted\n\n',
  '| a | b |\n| --- | --- |\n| 1 | 2 |\n\n---\n\nThe end.',
];

/**
 * Renders a small answer once, piece by piece as a stream would, and throws it away: the first
 * answer's first frames would otherwise pay for compiling the Markdown renderer (about 15–20 ms of
 * one frame). Run it when the UI is idle (after start-up), like the highlighter's warm-up.
 */
export function warmMarkdown(style: TuiStyle): void {
  const view = new AnswerView(style);
  for (const part of SAMPLE) {
    for (let i = 0; i < part.length; i += 4) {
      view.append(part.slice(i, i + 4));
      view.render(80);
    }
  }
}
