import { runTui, type TuiOptions } from './run-tui.js';

/**
 * The terminal UI across the sessions the user switches to: `/new`, `/sessions`, `/fork` and `/undo`
 * end a run of `runTui` with the next session, `/theme` with the same one in a new theme; the TUI then
 * starts again on it (its conversation replayed). The session left is closed at once (its lock freed);
 * the one given stays its caller's to close again (closing twice is harmless). Returns the exit code.
 */
export async function runTuiSessions(options: Omit<TuiOptions, 'canRestart'>): Promise<number> {
  let run: TuiOptions = { ...options, canRestart: true };
  try {
    for (;;) {
      const end = await runTui(run);
      if (end.type === 'exit') {
        // The conversation stays in the terminal's scrollback; say how to come back to it.
        (options.terminal ?? process.stdout).write(
          `To resume this session: kimi-ts -S ${run.session.sessionId}\n`,
        );
        return end.code;
      }
      const { restart } = end;
      if (restart.session !== run.session) await run.session.close();
      run = {
        ...run,
        session: restart.session,
        theme: restart.theme ?? run.theme,
        prefill: restart.prefill,
        notice: restart.notice,
        // The prompt given on the command line is the first run's alone.
        initialPrompt: undefined,
      };
    }
  } finally {
    if (run.session !== options.session) await run.session.close();
  }
}
