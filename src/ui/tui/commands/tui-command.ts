import type { AgentSession } from '../../../app/agent-session.js';
import type { TerminalSafe } from '../../../util/sanitize-terminal.js';
import type { SessionControl } from '../../common/session-control.js';
import type { ChoicePicker } from '../choice-picker.js';
import type { TuiTheme } from '../theme.js';
import type { TuiStyle } from '../tui-style.js';

/** Why the TUI leaves its session and starts again: another session, or the same one redrawn. */
export interface TuiRestart {
  session: AgentSession;
  /** Put in the prompt editor of the next run (what `/undo` undid). */
  prefill?: string | undefined;
  /** The theme of the next run (`/theme`). */
  theme?: TuiTheme | undefined;
  /** A line shown under the greeting of the next run. */
  notice?: string | undefined;
}

/** What a TUI command may do to the TUI it runs in. */
export interface TuiCommandContext {
  readonly session: AgentSession;
  readonly style: TuiStyle;
  readonly sessions: SessionControl | undefined;
  saveTheme: ((theme: TuiTheme) => Promise<void>) | undefined;
  /** A line in the conversation (already safe for the terminal). */
  note(text: TerminalSafe): void;
  /** Shows a picker; resolves with the chosen value, or null when left without choosing. */
  pick(picker: ChoicePicker): Promise<string | null>;
  /** Ends this run of the TUI and starts it again as `restart` says. */
  restart(restart: TuiRestart): void;
  /** Runs `text` as a turn, as if typed (a soul-level command such as `/rewind 2 --code`). */
  send(text: string): void;
  /** Reads the model (and its price) into the status line again. */
  refreshStatus(): void;
}

/** A slash command only the terminal UI has (Kimi CLI's shell-level commands). */
export interface TuiCommand {
  name: string;
  aliases?: readonly string[];
  description: string;
  /** It ends the run to start the TUI again (`/new`, `/theme`): offered only when the TUI can. */
  needsRestart?: boolean;
  /** Whether the session offers it (else the text goes to the session as typed); default: yes. */
  available?(session: AgentSession): boolean;
  run(args: string, context: TuiCommandContext): Promise<void>;
}
