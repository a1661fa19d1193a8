import {
  joinTerminalText,
  type TerminalSafe,
  terminalText as t,
  trustedLiteral,
} from '../../util/sanitize-terminal.js';
import { sanitizeForTerminal } from './sanitize-for-terminal.js';
import type { TuiStyle } from './tui-style.js';

/**
 * The TUI's own lines in the conversation (the greeting, errors, the queue), as safe text: what
 * they carry from elsewhere (a folder, an error's message, queued prompts) is sanitised here.
 */

/** The first lines: the session and its folder, a missing model, a notice, the keys. */
export function greetingText(
  style: TuiStyle,
  facts: { sessionId: string; workDir: string; llmNotSetMessage: string | null; notice: string | undefined },
): TerminalSafe {
  return joinTerminalText(
    [
      t`${style.bold('kimi-ts')}${style.dim(t` \u2014 session ${sanitizeForTerminal(facts.sessionId)} in ${sanitizeForTerminal(facts.workDir)}`)}`,
      ...(facts.llmNotSetMessage === null ? [] : [style.warn(sanitizeForTerminal(facts.llmNotSetMessage))]),
      ...(facts.notice ? [style.accent(sanitizeForTerminal(facts.notice))] : []),
      style.dim(
        'Enter sends · Shift-Enter/Ctrl-J: new line · Shift-Tab: plan mode · Esc cancels · Ctrl-E expands a result · /exit',
      ),
    ],
    trustedLiteral('\n'),
  );
}

/** `Error: <message>`, the message made safe. */
export function errorNote(style: TuiStyle, message: string): TerminalSafe {
  return t`${style.error('Error:')} ${sanitizeForTerminal(message)}`;
}

/** The prompts waiting for the running turn to end, one line each. */
export function queuedText(style: TuiStyle, queue: readonly string[]): TerminalSafe {
  return joinTerminalText(
    queue.map((text) => style.dim(t`queued: ${sanitizeForTerminal(text)}`)),
    trustedLiteral('\n'),
  );
}

/** A prompt that found no model: one line (the how-to is in the greeting). */
export function noModelNote(style: TuiStyle): TerminalSafe {
  return t`${style.error('No model is configured')}: run ${style.bold('kimi-ts login')}, or set one up as the greeting above says (${style.bold('kimi-ts doctor')} checks the setup).`;
}
