import type { AgentSession } from '../../app/agent-session.js';
import type { TuiRestart } from './commands/tui-command.js';
import { runTui, type TuiOptions } from './run-tui.js';

/**
 * The terminal UI across the sessions the user switches to: `/new`, `/sessions`, `/fork` and `/undo`
 * end a run of `runTui` with the next session, `/theme` with the same one in a new theme; the TUI then
 * starts again on it (its conversation replayed). The session left is closed at once (its lock freed);
 * the one given stays its caller's to close again (closing twice is harmless). Returns the exit code.
 */
export async function runTuiSessions(options: Omit<TuiOptions, 'onRestart'>): Promise<number> {
  let session: AgentSession = options.session;
  let theme = options.theme;
  let restart: TuiRestart | null = null;
  let first = true;
  let prefill = options.prefill;
  let notice = options.notice;
  try {
    for (;;) {
      restart = null;
      const code = await runTui({
        ...options,
        session,
        theme,
        prefill,
        notice,
        initialPrompt: first ? options.initialPrompt : undefined,
        onRestart: (next) => {
          restart = next;
        },
      });
      first = false;
      const next = restart as TuiRestart | null;
      if (!next) {
        // The conversation stays in the terminal's scrollback; say how to come back to it.
        (options.terminal ?? process.stdout).write(
          `To resume this session: kimi-ts -S ${session.sessionId}\n`,
        );
        return code;
      }
      if (next.session !== session) await session.close();
      session = next.session;
      theme = next.theme ?? theme;
      prefill = next.prefill;
      notice = next.notice;
    }
  } finally {
    if (session !== options.session) await session.close();
  }
}
