import { type Editor, matchesKey, type SlashCommand, type TUI } from '@mariozechner/pi-tui';
import type { AgentSession } from '../../app/agent-session.js';
import { heldBackLines } from '../../util/held-back-lines.js';
import {
  joinTerminalText,
  type TerminalSafe,
  terminalText as t,
  trustedLiteral,
} from '../../util/sanitize-terminal.js';
import type { SessionControl } from '../common/session-control.js';
import { ChoicePicker } from './choice-picker.js';
import { modelCommand } from './commands/model-command.js';
import { rewindCommand } from './commands/rewind-command.js';
import { forkCommand, newSessionCommand, sessionsCommand, undoCommand } from './commands/session-commands.js';
import { themeCommand } from './commands/theme-command.js';
import type { TuiCommand, TuiCommandContext, TuiRestart } from './commands/tui-command.js';
import { HistorySearch } from './history-search.js';
import type { PanelSlot } from './panel-slot.js';
import { sanitizeForTerminal } from './sanitize-for-terminal.js';
import type { TuiTheme } from './theme.js';
import { errorNote } from './transcript-notes.js';
import type { TuiStyle } from './tui-style.js';

/** The TUI's own slash commands (Kimi CLI's shell-level ones, and pickers), ahead of the session's. */
export const TUI_SESSION_COMMANDS: readonly TuiCommand[] = [
  newSessionCommand,
  sessionsCommand,
  forkCommand,
  undoCommand,
  themeCommand,
  modelCommand,
  rewindCommand,
];

/** The commands offered in a run: those that need a restart only when the TUI can restart. */
export function offeredCommands(session: AgentSession, canRestart: boolean): TuiCommand[] {
  return TUI_SESSION_COMMANDS.filter(
    (c) => (canRestart || !c.needsRestart) && (c.available?.(session) ?? true),
  );
}

/** Completion items for the commands, with their descriptions. */
export function commandCompletions(commands: readonly TuiCommand[]): SlashCommand[] {
  return commands.flatMap((c) => [
    { name: c.name, description: c.description },
    ...(c.aliases ?? []).map((alias) => ({ name: alias, description: `same as /${c.name}` })),
  ]);
}

/** What the command panels need of the TUI they are hooked into. */
export interface CommandPanelsHost {
  tui: TUI;
  editor: Editor;
  session: AgentSession;
  style: TuiStyle;
  /** Where a picker or the history search shows. */
  slot: PanelSlot;
  /** Gives the slot and the keys back (to a waiting panel, else the editor). */
  restore(): void;
  note(text: TerminalSafe): void;
  restart(restart: TuiRestart): void;
  /** Whether `restart` can start the TUI again (else the commands that need it are not offered). */
  canRestart: boolean;
  /** Runs text as a turn, as if typed (past the command panels). */
  send(text: string): void;
  /** Reads the model into the status line again. */
  refreshStatus(): void;
  /** The work dir's prompts, newest first (grows as prompts are sent). */
  history: string[];
  sessions?: SessionControl | undefined;
  saveTheme?: ((theme: TuiTheme) => Promise<void>) | undefined;
}

/** A component that takes the keys while it is shown. */
type KeyTaker = {
  component: HistorySearch | ChoicePicker;
  key(data: string): void;
  /** It was pushed out of the slot (an approval came first). */
  dropped(): void;
};

/**
 * The TUI's shell-level commands (`/new`, `/sessions`, `/fork`, `/undo`, `/theme`, `/model`, `/rewind`) and Ctrl-R history
 * search, hooked into the TUI controller at three points: completion items, `runCommand` before a prompt is
 * sent, `handleKey` first among the key listeners.
 */
export class CommandPanels {
  private open: KeyTaker | null = null;

  constructor(private readonly host: CommandPanelsHost) {}

  /** The commands offered in this run (asked again each time: availability may change). */
  private get commands(): TuiCommand[] {
    return offeredCommands(this.host.session, this.host.canRestart);
  }

  /** Runs `text` when it is one of the commands (true), else leaves it to be sent (false). */
  runCommand(text: string): boolean {
    const match = /^\/([A-Za-z0-9_-]+)(?:\s+([\s\S]*))?$/.exec(text.trim());
    if (!match) return false;
    const name = match[1]?.toLowerCase();
    const command = this.commands.find((c) => c.name === name || c.aliases?.includes(name ?? ''));
    if (!command) return false;
    void command.run(match[2] ?? '', this.context()).catch((error: unknown) => {
      this.host.note(
        t`${this.host.style.error('Error:')} ${sanitizeForTerminal(error instanceof Error ? error.message : String(error))}`,
      );
      this.host.tui.requestRender();
    });
    return true;
  }

  /** A key pressed: true when the command panels took it (a picker or the search is open, or Ctrl-R). */
  handleKey(data: string): boolean {
    if (this.open) {
      this.open.key(data);
      this.host.tui.requestRender();
      return true;
    }
    if (matchesKey(data, 'ctrl+r') && this.host.slot.isEmpty) {
      this.searchHistory();
      return true;
    }
    return false;
  }

  /** A prompt was sent: Ctrl-R finds it from now on. */
  remember(text: string): void {
    if (this.host.history[0] !== text) this.host.history.unshift(text);
  }

  /**
   * Asks once at start whether to trust the work dir, when trusting it would change something (its
   * rules file has allow rules): trust and remember it, trust it for this session, or not (Esc too).
   */
  async askWorkspaceTrust(): Promise<void> {
    const { session, style } = this.host;
    const trust = session.workspaceTrust;
    if (trust.trusted || trust.enables.length === 0) return;
    if (!trust.worthAsking) {
      // The person said no before (the trust record): not asked again, only reminded.
      this.host.note(
        style.dim(
          'Workspace not trusted (you said no before): its allow rules are not in force; /permissions trust trusts it.',
        ),
      );
      this.host.tui.requestRender();
      return;
    }
    // The whole story in the transcript (it wraps), every allow rule on a line of its own; the
    // picker's title is one line, cut to the width.
    this.host.note(
      joinTerminalText(
        [
          t`${style.bold('Workspace trust')}: ${sanitizeForTerminal(trust.folder)} is not trusted, so its own configuration is not in force:`,
          ...heldBackLines(trust),
          t`A repository you did not write can use it to run commands without asking.`,
        ],
        trustedLiteral('\n'),
      ),
    );
    const picker = new ChoicePicker(
      t`Trust the folder ${sanitizeForTerminal(trust.folder)}?`,
      [
        {
          value: 'remember',
          label: trustedLiteral('Yes, trust this folder'),
          description: trustedLiteral('remembered for later sessions'),
        },
        {
          value: 'session',
          label: trustedLiteral('Yes, for this session only'),
          description: trustedLiteral('asked again next time'),
        },
        {
          value: 'no',
          label: trustedLiteral('No'),
          description: trustedLiteral('its allow rules stay off; not asked again (/permissions trust)'),
        },
      ],
      style,
      2,
      'answers',
    );
    const chosen = await this.pick(picker);
    if (chosen === 'no') {
      // An explicit "No" is remembered (the trust record in the agent's home); Esc only skips.
      try {
        await trust.decline();
        this.host.note(
          style.dim(
            'Workspace not trusted: its allow rules are not in force. Not asked again here; /permissions trust trusts it.',
          ),
        );
      } catch (error) {
        this.host.note(errorNote(style, `The answer could not be recorded: ${(error as Error).message}`));
      }
      this.host.tui.requestRender();
      return;
    }
    if (chosen !== 'remember' && chosen !== 'session') {
      this.host.note(style.dim('Workspace not trusted: its allow rules are not in force.'));
      this.host.tui.requestRender();
      return;
    }
    try {
      await trust.trust({ remember: chosen === 'remember', source: 'person' });
      this.host.note(
        style.dim(chosen === 'session' ? 'Workspace trusted for this session.' : 'Workspace trusted.'),
      );
    } catch (error) {
      this.host.note(
        t`${style.error('Error:')} ${sanitizeForTerminal(error instanceof Error ? error.message : String(error))}`,
      );
    }
    this.host.tui.requestRender();
  }

  private searchHistory(): void {
    const search = new HistorySearch(this.host.history, this.host.style);
    this.show({
      component: search,
      key: (data) => {
        const outcome = search.handleKey(data);
        if (!outcome.done) return;
        this.close();
        if (outcome.taken !== null) this.host.editor.setText(outcome.taken);
      },
      dropped: () => {},
    });
  }

  private pick(picker: ChoicePicker): Promise<string | null> {
    // Between turns nothing else redraws: show the key hint once the picker takes keys.
    picker.arm.onArmed = () => this.host.tui.requestRender();
    return new Promise((resolve) => {
      this.show({
        component: picker,
        key: (data) => {
          const outcome = picker.handleKey(data);
          if (!outcome.done) return;
          this.close();
          resolve(outcome.chosen);
        },
        dropped: () => resolve(null),
      });
    });
  }

  private show(taker: KeyTaker): void {
    this.open = taker;
    // Pushed aside (an approval came first, or the slot was emptied): the picker answers nothing.
    this.host.slot.show(taker.component, () => {
      if (this.open !== taker) return;
      this.open = null;
      taker.dropped();
    });
  }

  private close(): void {
    this.open = null;
    this.host.restore();
  }

  private context(): TuiCommandContext {
    const { host } = this;
    return {
      session: host.session,
      style: host.style,
      sessions: host.sessions,
      saveTheme: host.saveTheme,
      note: (text) => {
        host.note(text);
        host.tui.requestRender();
      },
      pick: (picker) => this.pick(picker),
      restart: (restart) => host.restart(restart),
      send: (text) => host.send(text),
      refreshStatus: () => {
        host.refreshStatus();
        host.tui.requestRender();
      },
    };
  }
}
