import { matchesKey, visibleWidth } from '@mariozechner/pi-tui';
import { type TerminalSafe, terminalText as t } from '../../util/sanitize-terminal.js';
import type { DiffDisplayBlock } from '../../wire/display.js';
import { type ChangedLine, changedLines } from '../common/diff-changes.js';
import { diffLineNumber, diffLineText } from './diff-lines.js';
import { fitLine, wrapLines } from './terminal-lines.js';
import type { TuiStyle } from './tui-style.js';

/** The rows of each changed line at one width (a long line wraps in full, nothing is cut). */
interface Layout {
  width: number;
  rows: TerminalSafe[];
  /** Index of each changed line's first row; one more entry: the total. */
  starts: number[];
}

/**
 * The changed lines of a file edit an approval asks about, in a window the panel sizes to the
 * terminal (issue #24: every line can be seen before it is approved). PgUp/PgDn (or Ctrl-E, the
 * TUI's "show more"), Shift-↑/↓ and Home/End move the window; each line is wrapped in full. The
 * window remembers which lines have been on screen, so the panel can say how many have not.
 */
export class EditWindow {
  private readonly changes: ChangedLine[];
  /** Lines whose every row has been on screen. */
  private readonly shown: boolean[];
  /** Rows seen of lines shown only in part so far (their row offsets), at the current width. */
  private readonly partly = new Map<number, Set<number>>();
  private shownCount = 0;
  private layout: Layout | null = null;
  private top = 0;
  /** The window's height in the last frame (paging moves by it). */
  private height = 1;

  constructor(
    blocks: readonly DiffDisplayBlock[],
    private readonly style: TuiStyle,
  ) {
    this.changes = blocks.flatMap((block) => changedLines(block));
    this.shown = this.changes.map(() => false);
  }

  get lineCount(): number {
    return this.changes.length;
  }

  /** Changed lines that have not been on screen yet (in full). */
  get notShown(): number {
    return this.changes.length - this.shownCount;
  }

  /** Whether the last frame could not hold every row (the window scrolls). */
  get scrolls(): boolean {
    return this.layout !== null && this.layout.rows.length > this.height;
  }

  /**
   * The rows in the window of at most `height` rows, and the line under them that says where the
   * window is and how many lines were not shown yet (null when every row fits). Marks what it shows.
   */
  render(width: number, height: number): { rows: TerminalSafe[]; where: TerminalSafe | null } {
    const layout = this.layoutFor(width);
    const total = layout.rows.length;
    this.height = Math.max(1, Math.min(height, total));
    this.top = Math.max(0, Math.min(this.top, total - this.height));
    const bottom = this.top + this.height;
    this.markShown(layout, this.top, bottom);
    const rows = layout.rows.slice(this.top, bottom);
    if (total <= this.height) return { rows, where: null };
    const first = lineAt(layout, this.top) + 1;
    const last = lineAt(layout, bottom - 1) + 1;
    const count = this.changes.length;
    const unseen = this.notShown;
    const state = unseen > 0 ? this.style.warn(t`${unseen} not shown yet`) : this.style.dim(t`all shown`);
    const where = t`  ${this.style.dim(t`changed lines ${first}\u2013${last} of ${count} \u00B7`)} ${state} ${this.style.dim(t`\u00B7 PgUp/PgDn scroll`)}`;
    return { rows, where: fitLine(where, width) };
  }

  /**
   * Scroll keys move the window; true when `data` was one. In a text field (the reason for a
   * rejection) Ctrl-E and Home/End are the field's (line end, line start): only PgUp/PgDn and
   * Shift-↑/↓ scroll there.
   */
  scroll(data: string, inTextField = false): boolean {
    const total = this.layout?.rows.length ?? 0;
    const page = Math.max(1, this.height - 1);
    const last = Math.max(0, total - this.height);
    let top: number;
    if (matchesKey(data, 'pageDown') || (!inTextField && matchesKey(data, 'ctrl+e'))) top = this.top + page;
    else if (matchesKey(data, 'pageUp')) top = this.top - page;
    else if (matchesKey(data, 'shift+down')) top = this.top + 1;
    else if (matchesKey(data, 'shift+up')) top = this.top - 1;
    else if (!inTextField && matchesKey(data, 'home')) top = 0;
    else if (!inTextField && matchesKey(data, 'end')) top = last;
    else return false;
    this.top = Math.max(0, Math.min(last, top));
    return true;
  }

  private layoutFor(width: number): Layout {
    if (this.layout?.width === width) return this.layout;
    // Rows move with the width: what a line showed in part is counted again at the new one.
    this.partly.clear();
    const indent = t`  `;
    const rows: TerminalSafe[] = [];
    const starts: number[] = [];
    for (const change of this.changes) {
      starts.push(rows.length);
      const number = diffLineNumber(change, indent);
      const text = diffLineText(change, this.style);
      const numberWidth = visibleWidth(number);
      if (numberWidth + visibleWidth(text) <= width) {
        rows.push(t`${number}${text}`);
        continue;
      }
      // A long line wraps in full under its number (nothing of it is cut).
      const under = ' '.repeat(numberWidth) as TerminalSafe;
      wrapLines(text, Math.max(1, width - numberWidth)).forEach((part, i) => {
        rows.push(fitLine(t`${i === 0 ? number : under}${part}`, width));
      });
    }
    starts.push(rows.length);
    this.layout = { width, rows, starts };
    return this.layout;
  }

  private markShown(layout: Layout, top: number, bottom: number): void {
    for (let line = lineAt(layout, top); line < this.changes.length; line++) {
      const start = layout.starts[line]!;
      const end = layout.starts[line + 1]!;
      if (start >= bottom) break;
      if (this.shown[line]) continue;
      if (start >= top && end <= bottom) {
        this.markLine(line);
        continue;
      }
      // Taller than the window, or cut by its edge: the rows seen so far count.
      const seen = this.partly.get(line) ?? new Set<number>();
      for (let row = Math.max(start, top); row < Math.min(end, bottom); row++) seen.add(row - start);
      this.partly.set(line, seen);
      if (seen.size === end - start) this.markLine(line);
    }
  }

  private markLine(line: number): void {
    this.shown[line] = true;
    this.shownCount++;
    this.partly.delete(line);
  }
}

/** The changed line a row belongs to (binary search over the first rows). */
function lineAt(layout: Layout, row: number): number {
  let low = 0;
  let high = layout.starts.length - 2;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (layout.starts[mid]! <= row) low = mid;
    else high = mid - 1;
  }
  return Math.max(0, low);
}
