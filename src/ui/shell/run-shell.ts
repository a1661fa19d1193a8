import type { Readable, Writable } from 'node:stream';
import type { AgentSession } from '../../app/agent-session.js';
import { extractText } from '../../kosong/message.js';
import { describeTurnError, LLMNotSet, RunCancelled } from '../../soul/errors.js';
import type { UILoop } from '../../soul/run-soul.js';
import {
  sanitizeForTerminal as clean,
  joinTerminalText,
  type TerminalSafe,
  terminalText as t,
} from '../../util/sanitize-terminal.js';
import type { WireMessage } from '../../wire/message.js';
import type { ApprovalRequest, QuestionRequest } from '../../wire/requests.js';
import { readWireFile } from '../../wire/wire-file.js';
import { type AnsiStyle, ansiStyle } from '../common/ansi-style.js';
import { CONTINUATION_PROMPT, composeInEditor, continues } from '../common/compose.js';
import type { InputHistory } from '../common/input-history.js';
import type { SessionControl } from '../common/session-control.js';
import { runShellEscape } from '../common/shell-escape.js';
import { askApproval, askQuestions } from './ask-inline.js';
import { askWorkspaceTrust } from './ask-trust.js';
import { LineReader, WOKEN } from './line-reader.js';
import { ShellRenderer, type ThinkingDisplay } from './shell-renderer.js';

export interface ShellOptions {
  session: AgentSession;
  input: Readable;
  output: Writable;
  /** Whether input and output are a terminal (prompt shown, Ctrl-C cancels the running turn). */
  isTerminal: boolean;
  /** Run this first, as if typed. */
  initialPrompt?: string | undefined;
  /** Colour the output (a terminal without NO_COLOR). */
  color?: boolean | undefined;
  /** How thinking is shown (default: not at all). */
  thinking?: ThinkingDisplay | undefined;
  /** Prompts typed in this work dir before, kept across sessions. */
  history?: InputHistory | undefined;
  /** The environment `!command` runs with (default: this process's). */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Lets the user start, open and fork sessions (`/new`, `/sessions`, `/fork`). */
  sessions?: SessionControl | undefined;
}

const SHELL_COMMANDS_HELP =
  'In the shell: a line ending in \\ continues on the next, /editor writes the request in $EDITOR, !command runs a command for you alone (not part of the conversation), /new starts a session, /sessions lists them (/sessions ID opens one), /fork continues in a copy of this one, /undo goes back to before a turn, /exit leaves.';

const PROMPT = t`\u203A `;

/**
 * The line-mode interactive shell: one turn per line typed, the answer (and, on a terminal, the
 * thinking) streamed as it comes, approvals and questions asked inline, and the context in use shown
 * after each turn. A resumed session shows its conversation first. Ctrl-C cancels a running turn;
 * `/exit`, `/quit` or end of input leave. Returns the exit code.
 */
export async function runShell(options: ShellOptions): Promise<number> {
  const { output } = options;
  let session = options.session;
  // Only sanitised text (or our own words around it) reaches the terminal.
  const write = (text: TerminalSafe) => output.write(text);
  const style = ansiStyle(options.color ?? false);
  const newRenderer = () =>
    new ShellRenderer(write, session.workDir, { style, thinking: options.thinking ?? 'off' });
  let cancelTurn: AbortController | null = null;
  let interrupts = 0;
  const history = options.history;
  const reader = new LineReader(
    options.input,
    output,
    options.isTerminal,
    () => {
      if (cancelTurn && !cancelTurn.signal.aborted) {
        cancelTurn.abort(new RunCancelled());
        return;
      }
      if (++interrupts >= 2) reader.close();
      else write(t`\n(press Ctrl-C again or type /exit to leave)\n`);
    },
    history && options.isTerminal ? await history.load() : [],
    (text) => {
      // Ctrl-S during a turn: the text goes into the running turn (after its current step).
      if (!cancelTurn || !session.steer(text)) return false;
      write(t`\n${style.dim(t`(steering: ${clean(text.trim())})`)}\n`);
      return true;
    },
  );
  const greet = async () => {
    write(t`kimi-ts \u2014 session ${clean(session.sessionId)} in ${clean(session.workDir)}\n`);
    await replayConversation(session.wireFile, newRenderer(), write, style);
    if (!session.hasLLM) write(t`${clean(session.llmNotSetMessage)}\n`);
    await askWorkspaceTrust(session.workspaceTrust, reader, write, options.isTerminal);
    write(t`Type a request, /help for commands, /exit to leave.\n`);
  };
  await greet();

  // A background agent may ask for approval while the shell waits for the next request: ask at once.
  const betweenTurns: ApprovalRequest[] = [];
  // A scheduled prompt that comes due while the shell waits for a request runs as a turn at once.
  const dueScheduled: string[] = [];
  const listen = () => {
    const stopOutOfTurn = session.onOutOfTurn((message) => {
      if (message.type !== 'ApprovalRequest' || !message.isPending) return;
      betweenTurns.push(message);
      reader.wake();
    });
    const stopScheduled = session.onScheduledPrompt(({ jobId }) => {
      if (!dueScheduled.includes(jobId)) dueScheduled.push(jobId);
      reader.wake();
    });
    return () => {
      stopOutOfTurn();
      stopScheduled();
    };
  };
  let stopListening = listen();
  const switchTo = async (next: AgentSession) => {
    stopListening();
    betweenTurns.length = 0;
    dueScheduled.length = 0;
    await session.close();
    session = next;
    stopListening = listen();
    write(t`\n`);
    await greet();
  };
  try {
    let pending = options.initialPrompt;
    for (;;) {
      for (let request = betweenTurns.shift(); request; request = betweenTurns.shift()) {
        if (!request.isPending) continue;
        write(t`\n`);
        await askApproval(request, reader, write);
      }
      const jobId = pending === undefined ? dueScheduled.shift() : undefined;
      if (jobId !== undefined) {
        write(t`\n`);
        cancelTurn = new AbortController();
        await runTurn(
          (ui, cancel) => session.runScheduledTurn(jobId, ui, cancel),
          reader,
          write,
          newRenderer(),
          style,
          cancelTurn.signal,
        );
        cancelTurn = null;
        continue;
      }
      let line = pending ?? (await reader.nextPrompt(PROMPT));
      pending = undefined;
      if (line === WOKEN) continue;
      if (line === null) break;
      // A trailing backslash continues the request on the next line.
      while (typeof line === 'string' && continues(line)) {
        const more = await reader.next(CONTINUATION_PROMPT);
        line = more === null ? line.slice(0, -1) : `${line.slice(0, -1)}\n${more}`;
        if (more === null) break;
      }
      let text = line.trim();
      if (text === '/editor') {
        reader.pause();
        const composed = composeInEditor(options.env ?? process.env);
        reader.resume();
        if (composed.error) write(t`${style.error(t`Error:`)} ${clean(composed.error)}\n`);
        if (composed.text === null) continue;
        write(t`${PROMPT}${clean(composed.text)}\n`);
        text = composed.text;
      }
      if (!text) continue;
      if (text === '/exit' || text === '/quit') break;
      void history?.add(text);
      if (options.sessions && (await sessionCommand(text, options.sessions, session, switchTo, write)))
        continue;
      if (options.sessions && /^\/undo(\s|$)/.test(text)) {
        const undone = await undoCommand(text, options.sessions, session, switchTo, write);
        if (undone !== null) {
          reader.prefill(undone);
          if (!options.isTerminal) write(t`(the request you undid: ${clean(undone)})\n`);
        }
        continue;
      }
      if (text.startsWith('!')) {
        cancelTurn = new AbortController();
        await runShellEscape({
          command: text.slice(1),
          workDir: session.workDir,
          env: options.env ?? process.env,
          // The person's own command, shown as their terminal would show it had they typed it there.
          write: (raw) => output.write(raw),
          style: { dim: (note) => style.dim(clean(note)), error: (note) => style.error(clean(note)) },
          signal: cancelTurn.signal,
        });
        cancelTurn = null;
        continue;
      }
      interrupts = 0;
      cancelTurn = new AbortController();
      const renderer = newRenderer();
      await runTurn(
        (ui, cancel) => session.runTurn(text, ui, cancel),
        reader,
        write,
        renderer,
        style,
        cancelTurn.signal,
      );
      cancelTurn = null;
      const status = options.isTerminal ? renderer.statusLine() : null;
      if (status) write(t`${status}\n`);
      if (options.sessions && /^\/(help|h|\?)$/.test(text)) write(t`${clean(SHELL_COMMANDS_HELP)}\n`);
    }
  } finally {
    stopListening();
    reader.close();
    // The session the shell was given is its caller's to close; one it switched to is its own.
    if (session !== options.session) await session.close();
  }
  return 0;
}

/**
 * `/undo` lists the turns it can go back to; `/undo N` continues in a new session holding the
 * conversation before turn N (the old session stays as it was). Returns turn N's text, which the
 * user may send again or change; null when nothing was undone.
 */
async function undoCommand(
  text: string,
  control: SessionControl,
  current: AgentSession,
  switchTo: (next: AgentSession) => Promise<void>,
  write: (text: TerminalSafe) => void,
): Promise<string | null> {
  const arg = text.slice('/undo'.length).trim();
  const points = await control.undoPoints(current);
  if (!arg) {
    const listed = joinTerminalText(
      points.map((p) => t`  ${p.n}. ${preview(p.text)}`),
      t`\n`,
    );
    write(
      points.length === 0
        ? t`There is no turn to undo.\n`
        : t`${listed}\n(/undo N goes back to before turn N, in a new session; this one stays as it is)\n`,
    );
    return null;
  }
  const point = points.find((p) => String(p.n) === arg);
  if (!point) {
    write(t`There is no turn ${clean(arg)} to undo; /undo lists them.\n`);
    return null;
  }
  try {
    await switchTo(await control.undo(current, point.n));
  } catch (error) {
    write(t`Error: ${clean(error instanceof Error ? error.message : String(error))}\n`);
    return null;
  }
  return point.text;
}

/** A turn's text on one line, at most 80 characters. */
function preview(text: string): TerminalSafe {
  const line = text.replace(/\s+/g, ' ').trim();
  return clean(line.length > 80 ? `${line.slice(0, 77)}...` : line);
}

/** Runs `/new`, `/sessions [id]` (`/resume`) and `/fork`; false for any other input. */
async function sessionCommand(
  text: string,
  control: SessionControl,
  current: AgentSession,
  switchTo: (next: AgentSession) => Promise<void>,
  write: (text: TerminalSafe) => void,
): Promise<boolean> {
  const match = /^\/(new|sessions|resume|fork)(?:\s+(\S+))?\s*$/.exec(text);
  if (!match) return false;
  const [, command, given] = match;
  try {
    // The lists show 8-character ids: any unique prefix names a session.
    const id = given === undefined ? undefined : await control.resolve(given);
    if (command === 'new') await switchTo(await control.create());
    else if (command === 'fork') await switchTo(await control.fork(current));
    else if (id) {
      const opened = id === current.sessionId ? null : await control.open(id);
      if (id === current.sessionId) write(t`That is this session.\n`);
      else if (opened) await switchTo(opened);
      else write(t`There is no session ${clean(id)} in this directory.\n`);
    } else {
      const saved = await control.list();
      const listed = joinTerminalText(
        saved.map(
          (s) =>
            t`${s.id === current.sessionId ? t`*` : t` `} ${clean(s.id)}  ${clean(new Date(s.updatedAt).toISOString())}  ${clean(s.title)}`,
        ),
        t`\n`,
      );
      write(
        saved.length === 0
          ? t`No saved sessions in this directory yet.\n`
          : t`${listed}\n(/sessions ID opens one)\n`,
      );
    }
  } catch (error) {
    write(t`Error: ${clean(error instanceof Error ? error.message : String(error))}\n`);
  }
  return true;
}

/**
 * Shows what a resumed session said so far (its wire.jsonl): each prompt after the prompt sign, the
 * rest as it was shown live. A new session has nothing to show.
 */
async function replayConversation(
  wireFile: string,
  renderer: ShellRenderer,
  write: (text: TerminalSafe) => void,
  style: AnsiStyle,
): Promise<void> {
  const { records } = await readWireFile(wireFile).catch(() => ({ records: [] }));
  let turns = 0;
  for (const { message } of records) {
    if (message.type === 'TurnBegin') {
      renderer.endLine();
      const input = message.payload.user_input;
      const text = typeof input === 'string' ? input : extractText({ content: input }, ' ');
      write(t`${PROMPT}${clean(text)}\n`);
      turns++;
    } else {
      renderer.handle(message);
    }
  }
  renderer.endLine();
  const earlier = turns === 1 ? t`1 earlier turn` : t`${turns} earlier turns`;
  if (turns > 0) write(t`${style.dim(t`(resumed: ${earlier} above)`)}\n`);
}

/** Runs one turn (`start` begins it: a typed request, or a scheduled prompt) with its questions asked. */
async function runTurn(
  start: (ui: UILoop, cancel: AbortSignal) => Promise<unknown>,
  reader: LineReader,
  write: (text: TerminalSafe) => void,
  renderer: ShellRenderer,
  style: AnsiStyle,
  cancel: AbortSignal,
): Promise<void> {
  let asking: Promise<void> = Promise.resolve();
  const ask = (request: ApprovalRequest | QuestionRequest) => {
    // One question at a time; the answer is read from the same input as prompts.
    asking = asking.then(async () => {
      // The answer just given may release this request (approve for the session or the swarm):
      // that release runs in promise jobs, all done by the next turn of the event loop.
      await new Promise((resolve) => setImmediate(resolve));
      if (!request.isPending) return;
      renderer.endLine();
      if (request.type === 'ApprovalRequest') await askApproval(request, reader, write);
      else await askQuestions(request, reader, write);
    });
  };
  const ui: UILoop = async (wire) => {
    for await (const batch of wire.subscribe({ merge: false }).batches()) {
      for (const message of batch) handle(message);
    }
  };
  const handle = (message: WireMessage) => {
    if (message.type === 'ApprovalRequest' || message.type === 'QuestionRequest') ask(message);
    else if (message.type === 'ToolCallRequest' || message.type === 'HookRequest')
      message.cancel('Not supported in the shell.');
    else renderer.handle(message);
  };
  try {
    await start(ui, cancel);
    renderer.endLine();
  } catch (error) {
    renderer.endLine();
    write(
      error instanceof RunCancelled
        ? t`(interrupted)\n`
        : error instanceof LLMNotSet
          ? // The how-to is in the greeting: once is enough, each prompt gets one line.
            t`${style.error(t`No model is configured`)}: run kimi-ts login, or set one up as the greeting above says (kimi-ts doctor checks the setup).\n`
          : t`${style.error(t`Error:`)} ${clean(describeTurnError(error))}\n`,
    );
  }
}
