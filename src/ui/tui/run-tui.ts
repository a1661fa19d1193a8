import { type Editor, matchesKey, ProcessTerminal, TUI } from '@mariozechner/pi-tui';
import { describeTurnError, LLMNotSet, RunCancelled } from '../../soul/errors.js';
import { terminalText as t } from '../../util/sanitize-terminal.js';
import { ansiStyle } from '../common/ansi-style.js';
import { composeInEditor } from '../common/compose.js';
import { runShellEscape } from '../common/shell-escape.js';
import { CommandOutputView } from './command-output-view.js';
import { CommandPanels, commandCompletions, offeredCommands } from './command-panels.js';
import type { TuiRestart } from './commands/tui-command.js';
import { warmHighlighter } from './highlight-code.js';
import { dispatchKey, type KeyBinding } from './key-bindings.js';
import { NoteView } from './note-view.js';
import { PanelQueue } from './panel-queue.js';
import { PanelSlot } from './panel-slot.js';
import { PlanModeToggle } from './plan-mode-toggle.js';
import { createPromptEditor, TUI_COMMANDS, useKimiKeys } from './prompt-editor.js';
import { replayConversation } from './replay.js';
import { SafeContainer } from './safe-component.js';
import { sanitizeForTerminal } from './sanitize-for-terminal.js';
import { currentContextSize, currentModel, priceOf } from './session-model-facts.js';
import {
  JOB_IDLE,
  StatusLineView,
  withContextSize,
  withJobStarted,
  withModes,
  withStreamed,
} from './status-line.js';
import { errorNote, greetingText, noModelNote, queuedText } from './transcript-notes.js';
import { HELP_COMMAND, tuiHelp } from './tui-help.js';
import type { TuiOptions } from './tui-options.js';
import { tuiStyle } from './tui-style.js';
import { turnUiLoop } from './turn-ui-loop.js';
import { TurnView } from './turn-view.js';
import { warmMarkdown } from './warm-markdown.js';

export type { TuiOptions };

/** Spinner and panel hints move at this pace while a turn runs. */
const TICK_MS = 80;
/** How long leaving waits for a cancelled job to wind down. */
const EXIT_WAIT_MS = 3000;
/** When the code highlighter starts warming up after start-up. */
const WARM_AFTER_MS = 200;

/**
 * The terminal UI: inline (the conversation goes to the terminal's own scrollback; only what changed
 * is redrawn), a prompt editor at the bottom with the status line under it. Enter sends the prompt, or
 * queues it while a turn runs; Ctrl-S steers the running turn with it; Esc or Ctrl-C cancels the
 * turn; Ctrl-C twice (or Ctrl-D) at an empty prompt, /exit or /quit leave. Returns the exit code.
 */
export async function runTui(options: TuiOptions): Promise<number> {
  const { session } = options;
  const style = tuiStyle(options.color, options.theme);
  useKimiKeys();
  const tui = new TUI(options.terminal ?? new ProcessTerminal());
  const transcript = new SafeContainer();
  const panelSlot = new PanelSlot(tui);
  const queuedNote = new NoteView(queuedText(style, []));
  const status = new StatusLineView(style, currentModel(session));
  status.facts = { ...status.facts, price: priceOf(session, options.modelPrices) };
  // The modes (yolo, afk, plan, sandbox) and the counts, read from the session: a command that
  // switched a mode, or the model entering plan mode, shows at the next refresh.
  const refreshStatus = () => {
    status.facts = {
      ...withModes(status.facts, session.modes, session.planMode),
      backgroundTasks: session.backgroundWork?.activeTaskIds().length ?? 0,
      subagents: running?.view.runningSubagents ?? 0,
    };
  };
  const pastPrompts = (await options.history?.load()) ?? [];
  const refreshModel = () => {
    status.facts = {
      ...withContextSize(status.facts, currentContextSize(session)),
      model: currentModel(session),
      price: priceOf(session, options.modelPrices),
    };
  };
  const canRestart = options.onRestart !== undefined;
  const offered = offeredCommands(session, canRestart);
  const editor: Editor = createPromptEditor(tui, style, {
    workDir: session.workDir,
    commands: [
      ...TUI_COMMANDS,
      ...commandCompletions(offered),
      ...session.slashCommands
        .filter((c) => !offered.some((o) => o.name === c.name))
        .map((c) => ({ name: c.name, description: c.description })),
    ],
    history: pastPrompts,
    gitAllowed: () => session.workspaceTrust.trusted,
  });
  // `panels`, `restartWith` and `sendTurn` are declared below; these run only once a command does.
  const commandPanels = new CommandPanels({
    tui,
    editor,
    session,
    style,
    slot: panelSlot,
    restore: () => panels.showNext(),
    note: (text) => transcript.addChild(new NoteView(text)),
    restart: (restart) => restartWith(restart),
    canRestart,
    send: (text) => sendTurn(text),
    refreshStatus: refreshModel,
    history: pastPrompts,
    sessions: options.onRestart ? options.sessions : undefined,
    saveTheme: options.saveTheme,
  });
  for (const part of [transcript, panelSlot.container, queuedNote, editor, status]) tui.addChild(part);
  tui.setFocus(editor);

  const newTurnView = () =>
    new TurnView({
      style,
      workDir: session.workDir,
      thinking: options.thinking,
      onStatus: (update) => status.applyStatus(update),
      onGoal: (goal) => status.applyGoal(goal),
      onRequest: (request, plan) => panels.ask(request, plan),
    });

  transcript.addChild(
    new NoteView(
      greetingText(style, {
        sessionId: session.sessionId,
        workDir: session.workDir,
        llmNotSetMessage: session.hasLLM ? null : session.llmNotSetMessage,
        notice: options.notice,
      }),
    ),
  );
  for (const view of await replayConversation(session.wireFile, newTurnView)) transcript.addChild(view);

  let exit: (code: number) => void = () => {};
  const exited = new Promise<number>((resolve) => {
    exit = resolve;
  });
  const restartWith = (restart: TuiRestart) => {
    options.onRestart?.(restart);
    exit(0);
  };
  let running: { cancel: AbortController; view: TurnView; done: Promise<void> } | null = null;
  refreshStatus();
  const queue: string[] = [];
  let interrupts = 0;
  let ticker: NodeJS.Timeout | null = null;

  const panels = new PanelQueue({ tui, slot: panelSlot, style, editor: () => editor });
  const stopListening = session.onOutOfTurn((message) => {
    if (message.type === 'ApprovalRequest' && message.isPending) panels.ask(message);
    refreshStatus();
    tui.requestRender();
  });

  const tick = () => {
    refreshStatus();
    panels.checkStillPending();
    tui.requestRender();
  };
  const showQueue = () => {
    queuedNote.setText(queuedText(style, queue));
  };

  /** Runs one job (a turn, or a `!command`) with its own view; Esc / Ctrl-C cancel it. */
  const runJob = async (work: (view: TurnView, signal: AbortSignal) => Promise<void>) => {
    const cancel = new AbortController();
    const view = newTurnView();
    let finished: () => void = () => {};
    running = { cancel, view, done: new Promise((resolve) => (finished = resolve)) };
    transcript.addChild(view);
    status.facts = { ...withJobStarted(status.facts), activity: 'working… (Esc cancels)' };
    ticker = setInterval(tick, TICK_MS);
    try {
      await work(view, cancel.signal);
    } catch (error) {
      view.note(
        error instanceof RunCancelled
          ? style.warn('(interrupted)')
          : error instanceof LLMNotSet
            ? noModelNote(style)
            : errorNote(style, describeTurnError(error)),
      );
    } finally {
      if (ticker) clearInterval(ticker);
      ticker = null;
      running = null;
      finished();
      panels.checkStillPending();
      const model = currentModel(session);
      status.facts = { ...status.facts, ...JOB_IDLE, model, price: priceOf(session, options.modelPrices) };
      refreshStatus();
      tui.requestRender();
    }
    const next = queue.shift();
    showQueue();
    if (next !== undefined) start(next);
  };

  const showIn = (view: TurnView) =>
    turnUiLoop(view, (m) => (status.facts = withStreamed(status.facts, m)), tui);
  const runTurn = (text: string) =>
    runJob(async (view, signal) => void (await session.runTurn(text, showIn(view), signal)));
  // A scheduled prompt due while nothing runs or waits runs as its own turn (else it comes again later).
  const stopScheduled = session.onScheduledPrompt(({ jobId }) => {
    if (!running && queue.length === 0)
      void runJob(async (view, signal) => void (await session.runScheduledTurn(jobId, showIn(view), signal)));
  });

  // `!command`: run by the user's shell for the user alone (not part of the conversation).
  const runBang = (command: string) =>
    runJob(async (view, signal) => {
      view.note(t`${style.accent('!')} ${style.bold(sanitizeForTerminal(command))}`);
      const output = new CommandOutputView(style);
      view.add(output);
      await runShellEscape({
        command,
        workDir: session.workDir,
        env: options.env ?? process.env,
        write: (text) => {
          output.append(text);
          tui.requestRender();
        },
        style: ansiStyle(options.color),
        signal,
      });
    });

  const start = (text: string) => {
    if (commandPanels.runCommand(text)) return;
    if (text.startsWith('!')) void runBang(text.slice(1));
    else if (HELP_COMMAND.test(text))
      // The session lists its commands; the TUI's own (and its keys) follow.
      void runTurn(text).then(() => {
        transcript.addChild(
          new NoteView(tuiHelp(commandCompletions(offeredCommands(session, canRestart)), style)),
        );
        tui.requestRender();
      });
    else void runTurn(text);
  };
  // A command's own turn (`/rewind 2 --code` after the pickers): queued like typed text while one runs.
  const sendTurn = (text: string) => {
    if (running) {
      queue.push(text);
      showQueue();
      tui.requestRender();
    } else void runTurn(text);
  };

  // Ctrl-O or /editor: the prompt in $VISUAL / $EDITOR; what was saved comes back into the editor.
  const openEditor = () => {
    tui.stop();
    const composed = composeInEditor(options.env ?? process.env, editor.getExpandedText());
    tui.start();
    if (composed.text !== null) editor.setText(composed.text);
    if (composed.error) transcript.addChild(new NoteView(errorNote(style, composed.error)));
    // The editor drew over the screen: draw everything again.
    tui.requestRender(true);
  };

  // Shift-Tab: plan mode on/off (also while a turn runs, as in Kimi CLI), with a note where it happened.
  const planToggle = new PlanModeToggle(
    session,
    (planMode) => {
      refreshStatus();
      const note = new NoteView(style.dim(planMode ? '(plan mode on)' : '(plan mode off)'));
      if (running) running.view.add(note);
      else transcript.addChild(note);
      tui.requestRender();
    },
    (error) => {
      transcript.addChild(
        new NoteView(errorNote(style, error instanceof Error ? error.message : String(error))),
      );
      tui.requestRender();
    },
  );

  const submit = (raw: string) => {
    const text = raw.trim();
    if (!text) return;
    if (text === '/exit' || text === '/quit') return exit(0);
    if (text === '/editor') return openEditor();
    editor.addToHistory(text);
    commandPanels.remember(text);
    void options.history?.add(text);
    if (running) {
      queue.push(text);
      showQueue();
      tui.requestRender();
      return;
    }
    start(text);
  };
  editor.onSubmit = submit;

  const cancelRunning = () => running?.cancel.abort(new RunCancelled());
  const noPanel = () => !panels.isShowing;
  const leave = () => exit(0);
  // Ctrl-C: cancels the running job, else clears the prompt, else leaves when pressed twice.
  const interrupt = () => {
    if (running) {
      // Ctrl-C drops everything in hand: the turn and the draft typed meanwhile (Esc keeps it).
      cancelRunning();
      editor.setText('');
      tui.requestRender();
      return;
    }
    if (editor.getText()) return editor.setText('');
    if (++interrupts >= 2) return leave();
    status.facts = { ...status.facts, activity: 'press Ctrl-C again to leave' };
    tui.requestRender();
  };
  // Ctrl-E: the last finished tool call's result, expanded or folded again.
  const toggleLastResult = () => {
    const views = transcript.children.filter((child): child is TurnView => child instanceof TurnView);
    const call = views.reverse().find((view) => view.lastFinishedCall)?.lastFinishedCall;
    if (!call) return;
    call.expanded = !call.expanded;
    tui.requestRender();
  };
  // Ctrl-S: the prompt steers the running turn.
  const steer = () => {
    const text = editor.getText().trim();
    if (!text || !running || !session.steer(text)) return;
    running.view.steer(text);
    editor.setText('');
    tui.requestRender();
  };
  /** The TUI's keys, after the pickers' and the history search's (`commandPanels.handleKey`). */
  const keyBindings: KeyBinding[] = [
    { key: 'ctrl+c', applies: () => true, run: interrupt },
    // Leaving must not depend on the completion menu: Enter on /exit leaves, menu open or not.
    {
      key: 'enter',
      applies: () => noPanel() && /^\/(exit|quit)$/.test(editor.getText().trim()),
      run: () => {
        editor.setText('');
        leave();
      },
    },
    {
      key: 'escape',
      applies: () => running !== null && noPanel() && !editor.isShowingAutocomplete(),
      run: cancelRunning,
    },
    { key: 'shift+tab', applies: noPanel, run: () => planToggle.toggle() },
    { key: 'ctrl+o', applies: noPanel, run: openEditor },
    { key: 'ctrl+e', applies: noPanel, run: toggleLastResult },
    { key: 'ctrl+d', applies: () => !running && noPanel() && !editor.getText(), run: leave },
    { key: 'ctrl+s', applies: () => running !== null && noPanel(), run: steer },
  ];
  tui.addInputListener((data) => {
    if (commandPanels.handleKey(data)) return { consume: true };
    // Escape sequences (keys like arrows, and the terminal's own replies to queries, which may land
    // between two presses) do not break a double Ctrl-C; typed text does.
    if (!matchesKey(data, 'ctrl+c') && !data.startsWith('\x1b')) interrupts = 0;
    return dispatchKey(keyBindings, data) ? { consume: true } : undefined;
  });

  if (options.prefill) editor.setText(options.prefill);
  tui.start();
  // Code highlighting compiles its grammars while the user types the first prompt, not mid-answer.
  const warming = setTimeout(() => {
    // The Markdown renderer compiles too (once highlighting is warm, so code blocks are warm too).
    const highlighting = options.color ? warmHighlighter() : Promise.resolve();
    void highlighting.then(() => warmMarkdown(style)).catch(() => {});
  }, WARM_AFTER_MS);
  // The trust question comes first: a prompt sent before it would run under rules not yet settled.
  void commandPanels.askWorkspaceTrust().then(() => {
    if (options.initialPrompt) submit(options.initialPrompt);
  });
  try {
    return await exited;
  } finally {
    // Leaving during a job cancels it and waits for it, so the session closes with nothing running.
    stopScheduled();
    queue.length = 0;
    const job = running as { cancel: AbortController; done: Promise<void> } | null;
    job?.cancel.abort(new RunCancelled());
    if (job)
      await Promise.race([job.done, new Promise((resolve) => setTimeout(resolve, EXIT_WAIT_MS).unref())]);
    stopListening();
    await planToggle.settled();
    clearTimeout(warming);
    if (ticker) clearInterval(ticker);
    // The last frame stays in the terminal: nothing transient ("press Ctrl-C again") in it.
    status.facts = { ...status.facts, activity: null, runningSince: null };
    await status.rendered(tui, EXIT_WAIT_MS);
    tui.stop();
  }
}
