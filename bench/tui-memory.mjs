// Memory of the terminal UI after a long streamed answer ends (run by tui.bench.mjs with
// `--expose-gc`): the 20,000-token answer of `streamAnswer()`, then idle seconds during which the TUI
// is redrawn every 100 ms (more than an idle TUI does: the worst case for garbage left behind).
// Prints one JSON line: heap and RSS before the answer, at its end, each idle second, after a full GC.
import { streamAnswer } from './tui.bench.mjs';

const IDLE_SECONDS = 10;
const gc = globalThis.gc;
if (typeof gc !== 'function') throw new Error('run with --expose-gc');

const reading = () => {
  gc();
  const { heapUsed, rss, external, arrayBuffers } = process.memoryUsage();
  return { heapUsed, rss, external, arrayBuffers };
};
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// What the TUI holds before any answer: the modules loaded, highlighter and Markdown warm.
const { TUI } = await import('@mariozechner/pi-tui');
await import('../dist/ui/tui/turn-view.js');
const { tuiStyle } = await import('../dist/ui/tui/tui-style.js');
const { warmHighlighter } = await import('../dist/ui/tui/highlight-code.js');
const { warmMarkdown } = await import('../dist/ui/tui/warm-markdown.js');
await warmHighlighter();
warmMarkdown(tuiStyle(true));
const before = reading();
const { tui, view } = await streamAnswer();
const end = reading();
const idle = [];
for (let second = 0; second < IDLE_SECONDS; second++) {
  for (let tick = 0; tick < 10; tick++) {
    tui.requestRender();
    tui.doRender();
    await sleep(100);
  }
  idle.push(reading());
}
// Still alive here: what was measured is what a TUI showing the answer holds.
if (!(tui instanceof TUI) || !view) throw new Error('lost the view');
console.log(JSON.stringify({ before, end, idle, idleEnd: idle.at(-1), idleSeconds: IDLE_SECONDS }));
