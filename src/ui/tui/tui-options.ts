import type { Terminal } from '@mariozechner/pi-tui';
import type { AgentSession } from '../../app/agent-session.js';
import type { InputHistory } from '../common/input-history.js';
import type { SessionControl } from '../common/session-control.js';
import type { TuiRestart } from './commands/tui-command.js';
import type { ModelPrice } from './status-line.js';
import type { TuiTheme } from './theme.js';
import type { ThinkingDisplay } from './thinking-view.js';

/** What `runTui` is given: the session, how to draw, and the hooks of the shell-level commands. */
export interface TuiOptions {
  session: AgentSession;
  /** Colour the output (false with `NO_COLOR`). */
  color: boolean;
  thinking: ThinkingDisplay;
  /** Prompts typed in this work dir before, kept across sessions. */
  history?: InputHistory | undefined;
  /** Run this first, as if typed. */
  initialPrompt?: string | undefined;
  /** The environment `!command` runs with (default: this process's). */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Each model's prices by alias (`[models.x] price`): the status line shows the cost with them. */
  modelPrices?: Readonly<Record<string, ModelPrice | undefined>> | undefined;
  /** The terminal (default: this process's stdin/stdout). */
  terminal?: Terminal | undefined;
  /** The colour theme (default dark). */
  theme?: TuiTheme | undefined;
  /** Lets `/new`, `/sessions`, `/fork` and `/undo` switch sessions (with `canRestart`). */
  sessions?: SessionControl | undefined;
  /** Saves the theme `/theme` chose in the config. */
  saveTheme?: ((theme: TuiTheme) => Promise<void>) | undefined;
  /** Text the prompt editor starts with. */
  prefill?: string | undefined;
  /** A line shown under the greeting. */
  notice?: string | undefined;
  /**
   * Whether a command may end this run to start the TUI again (another session, a new theme): the
   * caller runs it again with what the run ended with (`runTuiSessions` does). Else such commands
   * are not offered.
   */
  canRestart?: boolean | undefined;
}

/** How a run of the TUI ended: left (with its exit code), or to start again as a command asked. */
export type TuiEnd = { type: 'exit'; code: number } | { type: 'restart'; restart: TuiRestart };
