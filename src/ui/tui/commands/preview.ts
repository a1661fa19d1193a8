import { type TerminalSafe, terminalText as t } from '../../../util/sanitize-terminal.js';
import { sanitizeForTerminal } from '../sanitize-for-terminal.js';

/** A session's title or a turn's text on one line, at most this many characters (Kimi CLI: 80). */
const PREVIEW_CHARS = 80;

/** `text` on one line, safe for the terminal, shortened to `chars` with an ellipsis. */
export function preview(text: string, chars = PREVIEW_CHARS): TerminalSafe {
  const line = sanitizeForTerminal(text.replace(/\s+/g, ' ').trim());
  return line.length > chars ? t`${line.slice(0, chars - 1) as TerminalSafe}\u2026` : line;
}
