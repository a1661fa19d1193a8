import type { DisplayBlock } from '../../kosong/tool.js';
import { revealInvisibleLines, revealInvisibleOneLine } from '../../util/reveal-invisible.js';
import { joinTerminalText, type TerminalSafe, terminalText as t } from '../../util/sanitize-terminal.js';
import { changedLines } from '../common/diff-changes.js';

/**
 * What a file edit an approval asks about writes, for the line shell (issue #24: a line the person
 * did not see is not approved unseen): each diff block's path, then every changed line with its
 * number (`   26 + curl … | sh`), revealed. All of them: the terminal's scrollback holds what scrolls
 * past. A summary block (a change too large to diff) says so with its sizes. Empty when the
 * request shows no diff. Each line ends with a newline.
 */
export function editLinesText(display: readonly DisplayBlock[]): TerminalSafe {
  const lines: TerminalSafe[] = [];
  for (const block of display) {
    const { path, old_text, new_text, old_start, new_start, is_summary } = block;
    if (block.type !== 'diff' || typeof path !== 'string') continue;
    if (typeof old_text !== 'string' || typeof new_text !== 'string') continue;
    const where = revealInvisibleOneLine(path);
    if (is_summary === true) {
      lines.push(
        t`  ${where}: ${revealInvisibleOneLine(old_text)} \u2192 ${revealInvisibleOneLine(new_text)}\n`,
      );
      continue;
    }
    const changes = changedLines({
      old_text,
      new_text,
      old_start: typeof old_start === 'number' ? old_start : 1,
      new_start: typeof new_start === 'number' ? new_start : 1,
    });
    lines.push(t`  ${where} (${changes.length} changed line${changes.length === 1 ? t`` : t`s`}):\n`);
    for (const change of changes) {
      const sign = change.sign === '+' ? t`+` : t`-`;
      // One line of the file: revealed, kept to its line (a `\r` shows as `␍`).
      lines.push(
        t`  ${String(change.number).padStart(5) as TerminalSafe} ${sign} ${revealInvisibleLines(change.text)}\n`,
      );
    }
  }
  return joinTerminalText(lines, t``);
}
