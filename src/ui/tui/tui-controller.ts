import { type Editor, matchesKey, ProcessTerminal, TUI } from '@mariozechner/pi-tui';
import type { AgentSession } from '../../app/agent-session.js';
import type { UILoop } from '../../soul/run-soul.js';
import { deferred } from '../../util/deferred.js';
import type { TerminalSafe } from '../../util/sanitize-terminal.js';
import { composeInEditor } from '../common/compose.js';
import { CommandPanels, commandCompletions, offeredCommands } from './command-panels.js';
import type { TuiRestart } from './commands/tui-command.js';
import { JobRunner, type JobWork } from './job-runner.js';
import { shellEscapeWork, turnWork } from './job-work.js';
import { dispatchKey, type KeyBinding } from './key-bindings.js';
import { NoteView } from './note-view.js';
import { PanelQueue } from './panel-queue.js';
import { PanelSlot } from './panel-slot.js';
import { PlanModeToggle } from './plan-mode-toggle.js';
import { createPromptEditor, TUI_COMMANDS, useKimiKeys } from './prompt-editor.js';
import { PromptQueue } from './prompt-queue.js';
import { replayConversation } from './replay.js';
import { SafeContainer } from './safe-component.js';
import { SessionStatusLine } from './session-status-line.js';
import { errorNote, greetingText } from './transcript-notes.js';
import { HELP_COMMAND, tuiHelp } from './tui-help.js';
import { tuiKeyTable } from './tui-key-table.js';
import type { TuiEnd, TuiOptions } from './tui-options.js';
import { type TuiStyle, tuiStyle } from './tui-style.js';
import { TurnView } from './turn-view.js';
import { warmRenderersSoon } from './warm-markdown.js';

/** How long leaving waits for a cancelled job to wind down (and for the last frame). */
const EXIT_WAIT_MS = 3000;

/**
 * The terminal UI of one session, from its start to its exit: it builds the screen (transcript,
 * panel slot, queued prompts, prompt editor, status line), binds it to the session, runs what is
 * sent (a TUI command, a `!command`, or a turn; queued while a job runs) and dispatches the TUI's
 * own keys through its key-binding table. `run()` resolves with how the run ended.
 */
export class TuiController {
  private readonly session: AgentSession;
  private readonly style: TuiStyle;
  private readonly tui: TUI;
  /** The conversation so far; it scrolls into the terminal's own scrollback. */
  private readonly transcript = new SafeContainer();
  private readonly slot: PanelSlot;
  private readonly queue: PromptQueue;
  private readonly editor: Editor;
  private readonly status: SessionStatusLine;
  /** Approval, question and plan panels, one at a time in the slot. */
  private readonly panels: PanelQueue;
  /** The TUI's own slash commands and their pickers, and Ctrl-R (the slot's other users). */
  private readonly commands: CommandPanels;
  private readonly jobs: JobRunner;
  private readonly planToggle: PlanModeToggle;
  private readonly keyBindings: readonly KeyBinding[];
  private readonly end = deferred<TuiEnd>();
  private readonly canRestart: boolean;
  /** Ctrl-C presses in a row with nothing to cancel or clear: the second leaves. */
  private interrupts = 0;

  constructor(
    private readonly options: TuiOptions,
    /** The work dir's prompts, newest first (Up and Ctrl-R find them). */
    pastPrompts: string[],
  ) {
    const { session } = options;
    this.session = session;
    this.style = tuiStyle(options.color, options.theme);
    useKimiKeys();
    this.tui = new TUI(options.terminal ?? new ProcessTerminal());
    this.slot = new PanelSlot(this.tui);
    this.queue = new PromptQueue(this.style);
    this.status = new SessionStatusLine(session, this.style, options.modelPrices);
    this.canRestart = options.canRestart === true;
    this.editor = this.createEditor(pastPrompts);
    this.panels = new PanelQueue({ tui: this.tui, slot: this.slot, style: this.style, editor: this.editor });
    this.commands = new CommandPanels({
      tui: this.tui,
      editor: this.editor,
      session,
      style: this.style,
      slot: this.slot,
      restore: () => this.panels.showNext(),
      note: (text) => this.transcript.addChild(new NoteView(text)),
      restart: (restart) => this.restart(restart),
      canRestart: this.canRestart,
      send: (text) => this.sendTurn(text),
      refreshStatus: () => this.status.refreshModel(),
      history: pastPrompts,
      sessions: this.canRestart ? options.sessions : undefined,
      saveTheme: options.saveTheme,
    });
    this.jobs = new JobRunner({
      style: this.style,
      startView: () => {
        const view = this.newTurnView();
        this.transcript.addChild(view);
        this.status.jobStarted();
        return view;
      },
      tick: () => {
        this.refreshStatus();
        this.panels.checkStillPending();
        this.tui.requestRender();
      },
      ended: () => {
        this.panels.checkStillPending();
        this.status.jobEnded();
        this.refreshStatus();
        this.tui.requestRender();
      },
    });
    // Shift-Tab: plan mode on/off (also while a turn runs, as in Kimi CLI), with a note where it happened.
    this.planToggle = new PlanModeToggle(
      session,
      (planMode) => {
        this.refreshStatus();
        this.addNote(
          this.style.dim(planMode ? '(plan mode on)' : '(plan mode off)'),
          this.jobs.running?.view,
        );
      },
      (error) => this.addNote(errorNote(this.style, error instanceof Error ? error.message : String(error))),
    );
    this.keyBindings = tuiKeyTable({
      editor: this.editor,
      isPanelShowing: () => this.panels.isShowing,
      isJobRunning: () => this.jobs.running !== null,
      interrupt: () => this.interrupt(),
      leave: () => this.leave(),
      cancelJob: () => this.jobs.cancel(),
      togglePlanMode: () => this.planToggle.toggle(),
      openEditor: () => this.openEditor(),
      toggleLastResult: () => this.toggleLastResult(),
      steer: () => this.steer(),
    });
    for (const part of [this.transcript, this.slot.container, this.queue.view, this.editor, this.status.view])
      this.tui.addChild(part);
    this.tui.setFocus(this.editor);
    this.transcript.addChild(
      new NoteView(
        greetingText(this.style, {
          sessionId: session.sessionId,
          workDir: session.workDir,
          llmNotSetMessage: session.hasLLM ? null : session.llmNotSetMessage,
          notice: options.notice,
        }),
      ),
    );
  }

  /** Puts the session's conversation so far into the transcript (a resumed or switched-to session). */
  async replay(): Promise<void> {
    for (const view of await replayConversation(this.session.wireFile, () => this.newTurnView()))
      this.transcript.addChild(view);
  }

  /**
   * Starts the TUI and runs until it is left (`/exit`, Ctrl-D, Ctrl-C twice) or a command restarts it;
   * then cancels a running job, waits for it, and leaves the last frame in the terminal.
   */
  async run(): Promise<TuiEnd> {
    const { options, session, tui, editor } = this;
    this.refreshStatus();
    const stopListening = session.onOutOfTurn((message) => {
      if (message.type === 'ApprovalRequest' && message.isPending) this.panels.ask(message);
      this.refreshStatus();
      tui.requestRender();
    });
    // A scheduled prompt due while nothing runs or waits runs as its own turn (else it comes again later).
    const stopScheduled = session.onScheduledPrompt(({ jobId }) => {
      if (!this.jobs.running && this.queue.isEmpty) void this.runScheduledTurn(jobId);
    });
    editor.onSubmit = (text) => this.submit(text);
    tui.addInputListener((data) => (this.handleInput(data) ? { consume: true } : undefined));
    if (options.prefill) editor.setText(options.prefill);
    tui.start();
    const stopWarming = warmRenderersSoon(this.style, options.color);
    // The trust question comes first: a prompt sent before it would run under rules not yet settled.
    void this.commands.askWorkspaceTrust().then(() => {
      if (options.initialPrompt) this.submit(options.initialPrompt);
    });
    try {
      return await this.end.promise;
    } finally {
      // Leaving during a job cancels it and waits for it, so the session closes with nothing running.
      stopScheduled();
      this.queue.clear();
      await this.jobs.stop(EXIT_WAIT_MS);
      stopListening();
      await this.planToggle.settled();
      stopWarming();
      // The last frame stays in the terminal: nothing transient ("press Ctrl-C again") in it.
      await this.status.settleForExit(tui, EXIT_WAIT_MS);
      tui.stop();
    }
  }

  private createEditor(pastPrompts: string[]): Editor {
    const { session } = this;
    const offered = offeredCommands(session, this.canRestart);
    return createPromptEditor(this.tui, this.style, {
      workDir: session.workDir,
      commands: [
        ...TUI_COMMANDS,
        ...commandCompletions(offered),
        ...session.slashCommands
          .filter((c) => !offered.some((o) => o.name === c.name))
          .map((c) => ({ name: c.name, description: c.description })),
      ],
      history: pastPrompts,
      gitAllowed: () => session.workspaceTrust.gitAllowed,
    });
  }

  private newTurnView(): TurnView {
    return new TurnView({
      style: this.style,
      workDir: this.session.workDir,
      thinking: this.options.thinking,
      onStatus: (update) => this.status.applyUpdate(update),
      onSubagentUsage: (usage) => this.status.applySubagentUsage(usage),
      onGoal: (goal) => this.status.applyGoal(goal),
      onRequest: (request, plan) => this.panels.ask(request, plan),
    });
  }

  private refreshStatus(): void {
    this.status.refresh(this.jobs.running?.view.runningSubagents ?? 0);
  }

  private leave(): void {
    this.end.resolve({ type: 'exit', code: 0 });
  }

  /** A command ends this run for the TUI to start again (another session, a new theme). */
  private restart(restart: TuiRestart): void {
    this.end.resolve(this.canRestart ? { type: 'restart', restart } : { type: 'exit', code: 0 });
  }

  /** Enter in the prompt editor. */
  private submit(raw: string): void {
    const text = raw.trim();
    if (!text) return;
    if (text === '/exit' || text === '/quit') {
      this.leave();
    } else if (text === '/editor') {
      this.openEditor();
    } else {
      this.editor.addToHistory(text);
      this.commands.remember(text);
      void this.options.history?.add(text);
      if (this.jobs.running) this.enqueue(text);
      else this.start(text);
    }
  }

  /** A command's own turn (`/rewind 2 --code` after the pickers): queued like typed text while one runs. */
  private sendTurn(text: string): void {
    if (this.jobs.running) this.enqueue(text);
    else void this.runTurn(text);
  }

  private enqueue(text: string): void {
    this.queue.push(text);
    this.tui.requestRender();
  }

  /** Runs what was sent: a TUI command, a `!command`, `/help` (the session's, then the TUI's), or a turn. */
  private start(text: string): void {
    if (this.commands.runCommand(text)) return;
    if (text.startsWith('!')) void this.runShellEscape(text.slice(1));
    else if (HELP_COMMAND.test(text))
      // The session lists its commands; the TUI's own (and its keys) follow.
      void this.runTurn(text).then(() => {
        const help = tuiHelp(commandCompletions(offeredCommands(this.session, this.canRestart)), this.style);
        this.addNote(help);
      });
    else void this.runTurn(text);
  }

  /** Runs one job (a turn, or a `!command`); then the next queued prompt, if any. */
  private async runJob(work: JobWork): Promise<void> {
    await this.jobs.run(work);
    const next = this.queue.shift();
    if (next !== undefined) this.start(next);
  }

  private runTurn(text: string): Promise<void> {
    return this.runJob(this.turnWork((ui, signal) => this.session.runTurn(text, ui, signal)));
  }

  /** A scheduled prompt come due: its own turn (the session knows its text). */
  private runScheduledTurn(jobId: string): Promise<void> {
    return this.runJob(this.turnWork((ui, signal) => this.session.runScheduledTurn(jobId, ui, signal)));
  }

  private turnWork(run: (ui: UILoop, signal: AbortSignal) => Promise<unknown>): JobWork {
    return turnWork(run, (message) => this.status.streamed(message), this.tui);
  }

  private runShellEscape(command: string): Promise<void> {
    const { options } = this;
    return this.runJob(
      shellEscapeWork(command, {
        workDir: this.session.workDir,
        env: options.env ?? process.env,
        style: this.style,
        color: options.color,
        outputShown: () => this.tui.requestRender(),
      }),
    );
  }

  /** A note in the running job's view, else in the transcript. */
  private addNote(text: TerminalSafe, view?: TurnView | undefined): void {
    const note = new NoteView(text);
    if (view) view.add(note);
    else this.transcript.addChild(note);
    this.tui.requestRender();
  }

  /** A key: the command panels' first (a picker or the search has the keys), then the TUI's own. */
  private handleInput(data: string): boolean {
    if (this.commands.handleKey(data)) return true;
    // Escape sequences (keys like arrows, and the terminal's own replies to queries, which may land
    // between two presses) do not break a double Ctrl-C; typed text does.
    if (!matchesKey(data, 'ctrl+c') && !data.startsWith('\x1b')) this.interrupts = 0;
    return dispatchKey(this.keyBindings, data);
  }

  // Ctrl-C: cancels the running job, else clears the prompt, else leaves when pressed twice.
  private interrupt(): void {
    const { editor, tui } = this;
    if (this.jobs.running) {
      // Ctrl-C drops everything in hand: the turn and the draft typed meanwhile (Esc keeps it).
      this.jobs.cancel();
      editor.setText('');
      tui.requestRender();
      return;
    }
    if (editor.getText()) {
      editor.setText('');
    } else if (++this.interrupts >= 2) {
      this.leave();
    } else {
      this.status.showActivity('press Ctrl-C again to leave');
      tui.requestRender();
    }
  }

  // Ctrl-O or /editor: the prompt in $VISUAL / $EDITOR; what was saved comes back into the editor.
  private openEditor(): void {
    const { editor, tui } = this;
    tui.stop();
    const composed = composeInEditor(this.options.env ?? process.env, editor.getExpandedText());
    tui.start();
    if (composed.text !== null) editor.setText(composed.text);
    if (composed.error) this.transcript.addChild(new NoteView(errorNote(this.style, composed.error)));
    // The editor drew over the screen: draw everything again.
    tui.requestRender(true);
  }

  // Ctrl-E: the last finished tool call's result, expanded or folded again.
  private toggleLastResult(): void {
    const views = this.transcript.children.filter((child): child is TurnView => child instanceof TurnView);
    const call = views.reverse().find((view) => view.lastFinishedCall)?.lastFinishedCall;
    if (!call) return;
    call.expanded = !call.expanded;
    this.tui.requestRender();
  }

  // Ctrl-S: the prompt steers the running turn.
  private steer(): void {
    const text = this.editor.getText().trim();
    const running = this.jobs.running;
    if (!text || !running || !this.session.steer(text)) return;
    running.view.steer(text);
    this.editor.setText('');
    this.tui.requestRender();
  }
}
