import { decodeKittyPrintable, matchesKey } from '@mariozechner/pi-tui';
import { type TerminalSafe, terminalText as t } from '../../util/sanitize-terminal.js';
import type { SafeComponent } from './safe-component.js';
import { sanitizeForTerminal } from './sanitize-for-terminal.js';
import { fitLine } from './terminal-lines.js';
import type { TuiStyle } from './tui-style.js';

/** What a key did to the search: nothing yet, or it ended with a prompt taken (or none). */
export type HistorySearchOutcome = { done: false } | { done: true; taken: string | null };

/**
 * Ctrl-R: reverse incremental search over the work dir's prompt history, the way a shell does it.
 * Typing narrows the search (case-insensitive, anywhere in the prompt), Ctrl-R again goes to the next
 * older match, Backspace widens it, Enter takes the match into the editor, Esc or Ctrl-C leave it
 * without taking anything. Keys arrive through `handleKey` (the caller routes them while it is open).
 */
export class HistorySearch implements SafeComponent {
  private query = '';
  /** Where the shown match is in `entries` (newest first); -1 when nothing matches. */
  private at = -1;

  /** `entries`: the history, newest first. */
  constructor(
    private readonly entries: readonly string[],
    private readonly style: TuiStyle,
  ) {
    this.at = entries.length > 0 ? 0 : -1;
  }

  /** The prompt the search shows now, if any. */
  get match(): string | null {
    return this.at >= 0 ? (this.entries[this.at] ?? null) : null;
  }

  handleKey(data: string): HistorySearchOutcome {
    if (matchesKey(data, 'escape') || matchesKey(data, 'ctrl+c') || matchesKey(data, 'ctrl+g'))
      return { done: true, taken: null };
    if (matchesKey(data, 'enter'))
      return { done: true, taken: this.match === null ? null : editable(this.match) };
    if (matchesKey(data, 'ctrl+r')) {
      // No older match: stay on the one shown, as a shell does.
      const older = this.at === -1 ? -1 : this.find(this.at + 1);
      if (older !== -1) this.at = older;
      return { done: false };
    }
    if (matchesKey(data, 'backspace')) {
      this.query = [...this.query].slice(0, -1).join('');
      this.at = this.find(0);
      return { done: false };
    }
    const text = printable(data);
    if (text) {
      this.query += text;
      // A longer query keeps the match shown when it still matches (like a shell), else looks older.
      this.at = this.find(Math.max(this.at, 0));
    }
    return { done: false };
  }

  render(width: number): TerminalSafe[] {
    const { style } = this;
    const match = this.match;
    const head = t`(reverse-i-search)'${sanitizeForTerminal(this.query)}': `;
    const body =
      match === null ? style.dim(this.query ? 'no match' : 'no history yet') : this.highlight(match);
    return [
      fitLine(t`${style.accent(head)}${body}`, width),
      fitLine(style.dim('  Enter takes it · Ctrl-R older match · Esc leaves'), width),
    ];
  }

  invalidate(): void {}

  /** The first entry from `start` on that holds the query; -1 if none. */
  private find(start: number): number {
    const needle = this.query.toLowerCase();
    for (let i = start; i < this.entries.length; i++) {
      if ((this.entries[i] ?? '').toLowerCase().includes(needle)) return i;
    }
    return -1;
  }

  /** The match on one line (newlines shown as ↵), the query in it in bold. */
  private highlight(entry: string): TerminalSafe {
    const line = sanitizeForTerminal(entry.replace(/\r?\n/g, ' ↵ '));
    const index = this.query ? line.toLowerCase().indexOf(sanitizeForTerminal(this.query).toLowerCase()) : -1;
    if (index < 0) return line;
    const end = index + sanitizeForTerminal(this.query).length;
    // Slices of safe text are safe: the sanitiser judges each character alone.
    const [before, found, after] = [
      line.slice(0, index),
      line.slice(index, end),
      line.slice(end),
    ] as TerminalSafe[];
    return t`${before as TerminalSafe}${this.style.bold(this.style.accent(found as TerminalSafe))}${after as TerminalSafe}`;
  }
}

/** Typed text in a key event (plain, or in the kitty keyboard protocol); '' for other keys. */
function printable(data: string): string {
  const kitty = decodeKittyPrintable(data);
  if (kitty !== undefined) return kitty;
  if (data.startsWith('\x1b')) return '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  return /[\x00-\x1f\x7f]/.test(data) ? '' : data;
}

/**
 * A history entry as the editor may hold it: without control characters (the history file is only a
 * file; an escape sequence in it must not reach the terminal through the editor), newlines kept.
 */
function editable(entry: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  return entry.replace(/\r\n?/g, '\n').replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '');
}
