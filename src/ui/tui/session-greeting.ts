import type { AgentSession } from '../../app/agent-session.js';
import { NoteView } from './note-view.js';
import { sanitizeForTerminal } from './sanitize-for-terminal.js';
import type { TuiStyle } from './tui-style.js';

/**
 * The first lines of the transcript: the session and its work dir, how to set up a model when there
 * is none, the notice the TUI was started with (a session switched to), and the keys.
 */
export function sessionGreeting(
  session: AgentSession,
  style: TuiStyle,
  notice: string | undefined,
): NoteView {
  return new NoteView(
    [
      style.bold('kimi-ts') +
        style.dim(` — session ${session.sessionId} in ${sanitizeForTerminal(session.workDir)}`),
      ...(session.hasLLM ? [] : [style.warn(session.llmNotSetMessage)]),
      ...(notice ? [style.accent(sanitizeForTerminal(notice))] : []),
      style.dim(
        'Enter sends · Shift-Enter/Ctrl-J: new line · Shift-Tab: plan mode · Esc cancels · Ctrl-E expands a result · /exit',
      ),
    ].join('\n'),
  );
}
