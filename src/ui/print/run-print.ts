import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import type { AgentSession } from '../../app/agent-session.js';
import type { ContentPart } from '../../kosong/message.js';
import { contentPartSchema } from '../../kosong/message-json.js';
import {
  describeTurnError,
  exitCodeFor,
  LLMNotSet,
  MaxStepsReached,
  RunCancelled,
} from '../../soul/errors.js';
import type { UILoop } from '../../soul/run-soul.js';
import type { UserInput } from '../../soul/steer-queue.js';
import type { GoalRunEnd } from '../../tools/goal/goal-book.js';
import { builtOnFirstUse } from '../../util/built-on-first-use.js';
import {
  joinTerminalText,
  sanitizeForTerminal,
  type TerminalSafe,
  terminalText as t,
  trustedLiteral,
} from '../../util/sanitize-terminal.js';
import { type OutputFormat, PrintFormatter } from './print-formatter.js';
import type { PrintText } from './print-text.js';

export type InputFormat = 'text' | 'stream-json';

export interface PrintOptions {
  session: AgentSession;
  /** The prompt from `-p`; when absent the prompt comes from `input`. */
  prompt?: string | undefined;
  /** Standard input, asked for only when it is read: process.stdin builds its stream on first use. */
  input: () => Readable;
  inputFormat: InputFormat;
  outputFormat: OutputFormat;
  finalMessageOnly: boolean;
  /** Standard output: safe text (text format) or JSON lines (stream-json); nothing else compiles. */
  stdout: (text: PrintText) => void;
  /** Standard error, a terminal's: only safe text. */
  stderr: (text: TerminalSafe) => void;
  /** Aborts the running turn (SIGINT). */
  cancel: AbortSignal;
}

/** A stream-json input line's message, built on the first such line (text input never reads one). */
const inputMessageSchema = builtOnFirstUse(() =>
  z.looseObject({
    role: z.string(),
    content: z.preprocess(
      (value) => (value == null ? [] : typeof value === 'string' ? [{ type: 'text', text: value }] : value),
      z.array(contentPartSchema()),
    ),
  }),
);

/**
 * Print mode (reference §1.20): runs one turn per prompt without asking anyone anything (the session
 * is created with runtime afk), writes the answer to stdout, and returns the exit code: 0 success,
 * 1 a permanent failure, 75 a failure worth retrying later (rate limits, 5xx, network).
 */
export async function runPrint(options: PrintOptions): Promise<number> {
  const code = await runPrintTurns(options);
  const goalEnd = options.session.goalRunEnd();
  return goalEnd === null ? code : GOAL_EXIT_CODES[goalEnd];
}

/**
 * Kimi Code's exit codes when the run set or resumed a goal: how the goal ended, whatever the last
 * turn did (a provider error parks the goal as paused: 6, not 75).
 */
export const GOAL_EXIT_CODES: Readonly<Record<GoalRunEnd, number>> = { complete: 0, blocked: 3, paused: 6 };

async function runPrintTurns(options: PrintOptions): Promise<number> {
  const { session, stderr } = options;
  if (!session.hasLLM) {
    stderr(t`${sanitizeForTerminal(session.llmNotSetMessage)}\n`);
    return 1;
  }
  if (options.inputFormat === 'stream-json' && options.prompt === undefined) {
    let code = 0;
    // node:readline only for this input format, not on every print run's path to its first request.
    // A require, not `import()`: the bundle runs in a node:vm script, which has no `import()`.
    const { createInterface } = createRequire(import.meta.url)(
      'node:readline',
    ) as typeof import('node:readline');
    for await (const line of createInterface({
      input: options.input(),
      crlfDelay: Number.POSITIVE_INFINITY,
    })) {
      if (!line.trim()) continue;
      const input = parseInputLine(line, stderr);
      if (input === null) continue;
      code = await runOneTurn(options, input);
      if (code !== 0) return code;
    }
    return code;
  }
  const prompt = options.prompt ?? (await readAll(options.input()));
  if (!prompt.trim()) {
    stderr(trustedLiteral('No prompt given: pass one with -p/--prompt or on standard input.\n'));
    return 1;
  }
  const code = await runOneTurn(options, prompt);
  return code === 0 ? followUpBackgroundTasks(options) : code;
}

const BACKGROUND_FOLLOW_UP =
  '<system-reminder>Background tasks have completed. Process their results.</system-reminder>';
const BACKGROUND_TIMED_OUT =
  '<system-reminder>Waiting for background tasks took too long; they were stopped. Summarise what was done and what was not.</system-reminder>';

/**
 * Reference §1.20: after the turn, print mode waits for the background tasks it started and lets the
 * model process each batch of results, up to a ceiling; past it, the tasks are stopped, the model
 * summarises, and the run fails (exit 1).
 */
async function followUpBackgroundTasks(options: PrintOptions): Promise<number> {
  const work = options.session.backgroundWork;
  if (!work) return 0;
  const deadline = Date.now() + work.waitCeilingS * 1000;
  for (;;) {
    if (work.pendingForModel() > 0) {
      const code = await runOneTurn(options, BACKGROUND_FOLLOW_UP, true);
      if (code !== 0) return code;
      continue;
    }
    const active = work.activeTaskIds();
    if (active.length === 0) return 0;
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      const stopped = await work.stopAll('Print mode stopped waiting for background tasks.');
      options.stderr(
        t`timed out waiting for background tasks (${work.waitCeilingS}s), killed ${stopped} tasks\n`,
      );
      await runOneTurn(options, BACKGROUND_TIMED_OUT, true);
      return 1;
    }
    // Silence here could last up to the ceiling: say what the run waits for.
    const left = Math.ceil(remaining / 1000);
    options.stderr(
      t`waiting for ${active.length} background task${active.length === 1 ? t`` : t`s`} to finish: ${joinTerminalText(active.map(sanitizeForTerminal), trustedLiteral(', '))} (at most ${left}s more)\n`,
    );
    // Whichever task ends first; its notification is then pending for the model.
    const waiting = new AbortController();
    const stop = () => waiting.abort();
    options.cancel.addEventListener('abort', stop, { once: true });
    try {
      await Promise.race(active.map((id) => work.waitForTask(id, remaining, waiting.signal).catch(() => {})));
    } finally {
      waiting.abort();
      options.cancel.removeEventListener('abort', stop);
    }
    if (options.cancel.aborted) {
      options.stderr(trustedLiteral('Interrupted by user\n'));
      return 1;
    }
  }
}

async function runOneTurn(options: PrintOptions, input: UserInput, synthetic = false): Promise<number> {
  const { session, stderr } = options;
  // The formatter makes text safe where it takes it in (the model's control characters are shown,
  // not run); JSON lines are for programs. Progress goes to stderr in the text format only.
  const text = options.outputFormat === 'text';
  const formatter = new PrintFormatter(
    options.outputFormat,
    { out: options.stdout, progress: text ? stderr : () => {} },
    { finalMessageOnly: options.finalMessageOnly, workDir: session.workDir },
  );
  const ui: UILoop = async (wire) => {
    for await (const batch of wire.subscribe({ merge: true }).batches()) {
      for (const message of batch) formatter.handle(message);
    }
  };
  try {
    if (synthetic) await session.runSyntheticTurn(input, ui, options.cancel);
    else await session.runTurn(input, ui, options.cancel);
    formatter.finish();
    return 0;
  } catch (error) {
    formatter.finish();
    if (error instanceof RunCancelled) {
      stderr(trustedLiteral('Interrupted by user\n'));
      return 1;
    }
    if (error instanceof LLMNotSet || error instanceof MaxStepsReached) {
      stderr(t`${sanitizeForTerminal(error.message)}\n`);
      return 1;
    }
    stderr(t`Error: ${sanitizeForTerminal(describeTurnError(error))}\n`);
    return exitCodeFor(error);
  }
}

function parseInputLine(line: string, stderr: (text: TerminalSafe) => void): UserInput | null {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    stderr(t`Ignoring an input line that is not JSON: ${sanitizeForTerminal(line.slice(0, 80))}\n`);
    return null;
  }
  const parsed = inputMessageSchema().safeParse(raw);
  if (!parsed.success) {
    stderr(
      t`Ignoring an input line that is not a message: ${sanitizeForTerminal(z.prettifyError(parsed.error))}\n`,
    );
    return null;
  }
  if (parsed.data.role !== 'user') {
    stderr(t`Ignoring a ${sanitizeForTerminal(parsed.data.role)} message: only user messages start turns.\n`);
    return null;
  }
  const parts = parsed.data.content as ContentPart[];
  if (parts.every((p) => p.type === 'text'))
    return parts.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
  return parts;
}

async function readAll(input: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of input)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
