import { AnswerView } from './answer-view.js';
import { warmHighlighter } from './highlight-code.js';
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

/** When the warm-up starts after start-up: the first frame is drawn, the user starts typing. */
const WARM_AFTER_MS = 200;

/**
 * Warms the code highlighter (it compiles its grammars; with colour only) and then the Markdown
 * renderer while the user types the first prompt, not mid-answer. Returns how to call it off.
 */
export function warmRenderersSoon(style: TuiStyle, color: boolean): () => void {
  const timer = setTimeout(() => {
    // The Markdown renderer goes second, so the code blocks of its sample are highlighted warm too.
    const highlighting = color ? warmHighlighter() : Promise.resolve();
    void highlighting.then(() => warmMarkdown(style)).catch(() => {});
  }, WARM_AFTER_MS);
  return () => clearTimeout(timer);
}
