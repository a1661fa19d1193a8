import { CLI } from './run-cli.js';
import { type ScriptedCli, useScriptedCli } from './scripted-cli.js';
import type { ScriptedTurn } from './scripted-llm-server.js';
import { startTuiInTmux, type TmuxSandbox, type TmuxTerminal, TUI_READY } from './tmux-terminal.js';

export type TuiOptions = NonNullable<Parameters<typeof startTuiInTmux>[2]> & {
  /** Where the TUI runs: `cli.sandbox` unless given (e.g. a scenario's own sandbox). */
  sandbox?: TmuxSandbox;
};

/** `useScriptedCli()` for the terminal UI tests: the model server, the sandbox and the terminals. */
export interface TuiCli extends ScriptedCli {
  /**
   * Starts the built CLI's terminal UI (`--ui tui`) in a tmux pane on `cli.sandbox`; the pane is
   * closed after the test (closing it earlier, to start another, is fine).
   */
  startTui(options?: TuiOptions): TmuxTerminal;
  /** `setup(turns)`, then `startTui(options)`, resolved once its prompt takes input. */
  startWith(turns: ScriptedTurn[], options?: TuiOptions): Promise<TmuxTerminal>;
}

/** Call once at the top of a tui-*.test.ts file; see `useScriptedCli()` for the rest. */
export function useTuiCli(): TuiCli {
  const cli = useScriptedCli();
  const startTui = ({ sandbox, ...options }: TuiOptions = {}): TmuxTerminal => {
    const terminal = startTuiInTmux(CLI, sandbox ?? cli.sandbox, options);
    cli.defer(() => terminal.close());
    return terminal;
  };
  return Object.assign(cli, {
    startTui,
    async startWith(turns: ScriptedTurn[], options: TuiOptions = {}): Promise<TmuxTerminal> {
      await cli.setup(turns);
      const terminal = startTui(options);
      await terminal.waitFor(TUI_READY);
      return terminal;
    },
  });
}
