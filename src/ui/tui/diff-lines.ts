import { truncateToWidth, visibleWidth } from '@mariozechner/pi-tui';
import { revealInvisible } from '../../util/reveal-invisible.js';
import { type TerminalSafe, terminalText as t } from '../../util/sanitize-terminal.js';
import type { DiffDisplayBlock } from '../../wire/display.js';
import { type ChangedLine, changedLines } from '../common/diff-changes.js';
import { sanitizeForTerminal } from './sanitize-for-terminal.js';
import type { TuiStyle } from './tui-style.js';

/** Changed lines shown for one file edit in the transcript; the rest is counted (Ctrl-E is the output's). */
const MAX_DIFF_LINES = 12;

/** A file edit as coloured `+`/`-` lines with their line numbers, cut to the width. */
export function renderDiff(
  block: DiffDisplayBlock,
  style: TuiStyle,
  width: number,
  indent: TerminalSafe,
): TerminalSafe[] {
  const changes = changedLines(block);
  const lines = changes
    .slice(0, MAX_DIFF_LINES)
    .map((change) => fitToWidth(diffLine(change, style, indent), width));
  const hidden = changes.length - lines.length;
  if (hidden > 0)
    lines.push(style.dim(t`${indent}     \u2026 ${hidden} more changed line${hidden === 1 ? t`` : t`s`}`));
  return lines;
}

/** One changed line: its number, then `+`/`-` and the line revealed, coloured. Not cut or wrapped. */
export function diffLine(change: ChangedLine, style: TuiStyle, indent: TerminalSafe): TerminalSafe {
  return t`${diffLineNumber(change, indent)}${diffLineText(change, style)}`;
}

/** The plain part before a changed line: the indent and its number (`    26 `). */
export function diffLineNumber(change: ChangedLine, indent: TerminalSafe): TerminalSafe {
  return t`${indent}${String(change.number).padStart(4) as TerminalSafe} `;
}

/** A changed line's sign and text, revealed and coloured (`+ curl … | sh`). */
export function diffLineText(change: ChangedLine, style: TuiStyle): TerminalSafe {
  const sign = change.sign === '+' ? t`+` : t`-`;
  const paint = change.sign === '+' ? style.ok : style.error;
  return paint(t`${sign} ${revealInvisible(sanitizeForTerminal(change.text))}`);
}

/** A line cut to the width says how much of it is hidden (`…+120 cols`): nothing is cut silently. */
export function fitToWidth(line: TerminalSafe, width: number): TerminalSafe {
  const full = visibleWidth(line);
  if (full <= width) return line;
  const noteWidth = `…+${full} cols`.length;
  const hidden = full - Math.max(0, width - noteWidth);
  return truncateToWidth(line, width, `…+${hidden} cols`) as TerminalSafe;
}
