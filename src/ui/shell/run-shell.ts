import type { Readable, Writable } from 'node:stream';
import { extractText } from '../../kosong/message.js';
import type { AgentSession } from '../../soul/agent-session.js';
import { describeTurnError, RunCancelled } from '../../soul/errors.js';
import type { UILoop } from '../../soul/run-soul.js';
import type { WireMessage } from '../../wire/message.js';
import type { ApprovalRequest, QuestionRequest } from '../../wire/requests.js';
import { readWireFile } from '../../wire/wire-file.js';
import type { InputHistory } from './input-history.js';
import { LineReader, WOKEN } from './line-reader.js';
import { ShellRenderer, type ThinkingDisplay } from './shell-renderer.js';
import { type ShellStyle, shellStyle } from './shell-style.js';

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
}

const PROMPT = '› ';

/**
 * The line-mode interactive shell: one turn per line typed, the answer (and, on a terminal, the
 * thinking) streamed as it comes, approvals and questions asked inline, and the context in use shown
 * after each turn. A resumed session shows its conversation first. Ctrl-C cancels a running turn;
 * `/exit`, `/quit` or end of input leave. Returns the exit code.
 */
export async function runShell(options: ShellOptions): Promise<number> {
  const { session, output } = options;
  const write = (text: string) => output.write(text);
  const style = shellStyle(options.color ?? false);
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
      else write('\n(press Ctrl-C again or type /exit to leave)\n');
    },
    history && options.isTerminal ? await history.load() : [],
  );
  write(`kimi-ts — session ${session.sessionId} in ${session.workDir}\n`);
  await replayConversation(session.wireFile, newRenderer(), write, style);
  if (!session.hasLLM) write(`${session.llmNotSetMessage}\n`);
  write('Type a request, /help for commands, /exit to leave.\n');

  // A background agent may ask for approval while the shell waits for the next request: ask at once.
  const betweenTurns: ApprovalRequest[] = [];
  const stopListening = session.onOutOfTurn((message) => {
    if (message.type !== 'ApprovalRequest' || !message.isPending) return;
    betweenTurns.push(message);
    reader.wake();
  });
  try {
    let pending = options.initialPrompt;
    for (;;) {
      for (let request = betweenTurns.shift(); request; request = betweenTurns.shift()) {
        if (!request.isPending) continue;
        write('\n');
        await askApproval(request, reader, write);
      }
      const line = pending ?? (await reader.nextPrompt(PROMPT));
      pending = undefined;
      if (line === WOKEN) continue;
      if (line === null) break;
      const text = line.trim();
      if (!text) continue;
      if (text === '/exit' || text === '/quit') break;
      void history?.add(text);
      interrupts = 0;
      cancelTurn = new AbortController();
      const renderer = newRenderer();
      await runTurn(session, text, reader, write, renderer, style, cancelTurn.signal);
      cancelTurn = null;
      const status = options.isTerminal ? renderer.statusLine() : null;
      if (status) write(`${status}\n`);
    }
  } finally {
    stopListening();
    reader.close();
  }
  return 0;
}

/**
 * Shows what a resumed session said so far (its wire.jsonl): each prompt after the prompt sign, the
 * rest as it was shown live. A new session has nothing to show.
 */
async function replayConversation(
  wireFile: string,
  renderer: ShellRenderer,
  write: (text: string) => void,
  style: ShellStyle,
): Promise<void> {
  const { records } = await readWireFile(wireFile).catch(() => ({ records: [] }));
  let turns = 0;
  for (const { message } of records) {
    if (message.type === 'TurnBegin') {
      renderer.endLine();
      const input = message.payload.user_input;
      const text = typeof input === 'string' ? input : extractText({ content: input }, ' ');
      write(`${PROMPT}${text}\n`);
      turns++;
    } else {
      renderer.handle(message);
    }
  }
  renderer.endLine();
  if (turns > 0) write(`${style.dim(`(resumed: ${turns} earlier turn${turns === 1 ? '' : 's'} above)`)}\n`);
}

async function runTurn(
  session: AgentSession,
  text: string,
  reader: LineReader,
  write: (text: string) => void,
  renderer: ShellRenderer,
  style: ShellStyle,
  cancel: AbortSignal,
): Promise<void> {
  let asking: Promise<void> = Promise.resolve();
  const ask = (request: ApprovalRequest | QuestionRequest) => {
    // One question at a time; the answer is read from the same input as prompts.
    asking = asking.then(async () => {
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
    await session.runTurn(text, ui, cancel);
    renderer.endLine();
  } catch (error) {
    renderer.endLine();
    write(
      error instanceof RunCancelled
        ? '(interrupted)\n'
        : `${style.error('Error:')} ${describeTurnError(error)}\n`,
    );
  }
}

async function askApproval(
  request: ApprovalRequest,
  reader: LineReader,
  write: (text: string) => void,
): Promise<void> {
  const { action, description, source_kind, subagent_type, source_description } = request.payload;
  if (source_kind === 'background_agent') {
    const what = source_description ? `: ${source_description}` : '';
    write(`Background agent (${subagent_type ?? 'subagent'}${what}) asks:\n`);
  }
  write(`Allow ${action}? ${description}\n  [y] yes  [a] yes, for this session  [n] no  (or type why not)\n`);
  const answer = (await reader.next('approve? ')) ?? 'n';
  const choice = answer.trim().toLowerCase();
  if (choice === '' || choice === 'y' || choice === 'yes') request.resolve('approve');
  else if (choice === 'a' || choice === 'always') request.resolve('approve_for_session');
  else if (choice === 'n' || choice === 'no') request.resolve('reject');
  else request.resolve('reject', answer.trim());
}

async function askQuestions(
  request: QuestionRequest,
  reader: LineReader,
  write: (text: string) => void,
): Promise<void> {
  const answers: Record<string, string> = {};
  for (const item of request.payload.questions) {
    write(`${item.header ? `[${item.header}] ` : ''}${item.question}\n`);
    item.options.forEach((option, i) => {
      write(`  ${i + 1}. ${option.label}${option.description ? ` — ${option.description}` : ''}\n`);
    });
    write(
      `  (a number${item.multi_select ? 's separated by commas' : ''}, your own answer, or empty to skip)\n`,
    );
    const line = ((await reader.next('answer? ')) ?? '').trim();
    if (!line) continue;
    const picked = line
      .split(',')
      .map((part) => Number(part.trim()))
      .filter((n) => Number.isInteger(n) && n >= 1 && n <= item.options.length)
      .map((n) => item.options[n - 1]!.label);
    answers[item.question] = picked.length > 0 ? picked.join(', ') : line;
  }
  request.resolve(answers);
}
