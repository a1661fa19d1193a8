import { truncateToWidth, visibleWidth } from '@mariozechner/pi-tui';
import { diffLines } from 'diff';
import { revealInvisible } from '../../util/reveal-invisible.js';
import { type TerminalSafe, terminalText as t } from '../../util/sanitize-terminal.js';
import type { DiffDisplayBlock } from '../../wire/display.js';
import { sanitizeForTerminal } from './sanitize-for-terminal.js';
import type { TuiStyle } from './tui-style.js';

/** Changed lines shown for one file edit; the rest is counted. */
const MAX_DIFF_LINES = 12;

/** A file edit as coloured `+`/`-` lines with their line numbers, cut to the width. */
export function renderDiff(
  block: DiffDisplayBlock,
  style: TuiStyle,
  width: number,
  indent: TerminalSafe,
): TerminalSafe[] {
  const lines: TerminalSafe[] = [];
  let oldLine = block.old_start;
  let newLine = block.new_start;
  let hidden = 0;
  for (const change of diffLines(block.old_text, block.new_text)) {
    const texts = change.value.replace(/\n$/, '').split('\n');
    for (const text of texts) {
      if (!change.added && !change.removed) {
        oldLine++;
        newLine++;
        continue;
      }
      const number = change.added ? newLine++ : oldLine++;
      if (lines.length >= MAX_DIFF_LINES) {
        hidden++;
        continue;
      }
      const sign = change.added ? t`+` : t`-`;
      const paint = change.added ? style.ok : style.error;
      const shown = revealInvisible(sanitizeForTerminal(text));
      const line = t`${indent}${String(number).padStart(4) as TerminalSafe} ${paint(t`${sign} ${shown}`)}`;
      lines.push(fitToWidth(line, width));
    }
  }
  if (hidden > 0)
    lines.push(style.dim(t`${indent}     \u2026 ${hidden} more changed line${hidden === 1 ? t`` : t`s`}`));
  return lines;
}

/** A line cut to the width says how much of it is hidden (`…+120 cols`): nothing is cut silently. */
export function fitToWidth(line: TerminalSafe, width: number): TerminalSafe {
  const full = visibleWidth(line);
  if (full <= width) return line;
  const noteWidth = `…+${full} cols`.length;
  const hidden = full - Math.max(0, width - noteWidth);
  return truncateToWidth(line, width, `…+${hidden} cols`) as TerminalSafe;
}
