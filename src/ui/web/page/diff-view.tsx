import { diffLines } from 'diff';
import { useMemo } from 'preact/hooks';
import { revealInvisible, revealInvisibleOneLine } from '../../../util/reveal-invisible.js';
import type { DiffDisplayBlock } from './wire-types.js';

/** Longer texts are not diffed in the page (a diff of two huge files would stall the tab). */
const MAX_DIFF_CHARS = 200_000;

interface DiffLine {
  sign: '+' | '-' | ' ';
  oldNo: number | null;
  newNo: number | null;
  text: string;
}

/** The rows of a diff, each line's text revealed (see DiffView). */
export function diffRows(block: DiffDisplayBlock): DiffLine[] {
  const rows: DiffLine[] = [];
  if (block.old_text.length + block.new_text.length > MAX_DIFF_CHARS) {
    rows.push({ sign: ' ', oldNo: null, newNo: null, text: '(change too large to show)' });
    return rows;
  }
  let oldNo = block.old_start;
  let newNo = block.new_start;
  for (const change of diffLines(block.old_text, block.new_text)) {
    const lines = change.value.replace(/\n$/, '').split('\n');
    for (const line of lines) {
      const text = revealInvisible(line);
      if (change.added) rows.push({ sign: '+', oldNo: null, newNo: newNo++, text });
      else if (change.removed) rows.push({ sign: '-', oldNo: oldNo++, newNo: null, text });
      else rows.push({ sign: ' ', oldNo: oldNo++, newNo: newNo++, text });
    }
  }
  return rows;
}

/**
 * A file edit as rows of `+`/`-`/context lines. The path and every line are the model's (or the
 * file's) text: shown revealed (issue #24), so a bidi override cannot reorder the code the person
 * reads (Trojan Source) and a zero-width or blank-looking run shows as a marker. One row per line:
 * blank lines keep their rows and numbers.
 */
export function DiffView({ block }: { block: DiffDisplayBlock }) {
  const rows = useMemo(() => diffRows(block), [block]);
  return (
    <figure class="diff">
      <figcaption>
        {revealInvisibleOneLine(block.path)}
        {block.is_summary ? ' (summary)' : ''}
      </figcaption>
      <pre>
        {rows.map((row, i) => (
          <div key={i} class={row.sign === '+' ? 'add' : row.sign === '-' ? 'del' : 'ctx'}>
            <span class="ln">{row.oldNo ?? ''}</span>
            <span class="ln">{row.newNo ?? ''}</span>
            <span class="sign">{row.sign}</span>
            {row.text}
          </div>
        ))}
      </pre>
    </figure>
  );
}
