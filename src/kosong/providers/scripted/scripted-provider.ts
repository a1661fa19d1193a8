import { ChatProviderError } from '../../errors.js';
import type { StreamedPart, ThinkingEffort } from '../../message.js';
import type { ChatProvider, GenerateRequest, StreamedMessage } from '../../provider.js';
import { parseScript } from './dsl.js';
import { ScriptError, type ScriptedTurn, turnFromParts } from './scripted-turn.js';
import { openTurnStream } from './turn-stream.js';

export interface ScriptedProviderOptions {
  /** Reported as the model name (default `scripted`). */
  modelName?: string | undefined;
  thinkingEffort?: ThinkingEffort | null | undefined;
  /** Print every consumed script: `true` writes to stderr, a function receives each line. */
  trace?: boolean | ((line: string) => void) | undefined;
}

interface QueuedScript {
  turn: ScriptedTurn;
  /** The script text, when it came from one (shown by the trace). */
  source: string | null;
}

/**
 * A chat provider that plays prepared answers: every `generate()` call takes the next script off a
 * FIFO queue, whatever the history says, so a test decides each step of the agent loop in advance.
 * Scripts are parsed when queued, so a bad one fails at load time rather than mid-run.
 */
export class ScriptedProvider implements ChatProvider {
  readonly name = 'scripted';
  readonly modelName: string;
  readonly thinkingEffort: ThinkingEffort | null;
  private queue: QueuedScript[] = [];
  private head = 0;
  private calls = 0;
  private readonly trace: ((line: string) => void) | null;

  constructor(scripts: Iterable<string | ScriptedTurn> = [], options: ScriptedProviderOptions = {}) {
    this.modelName = options.modelName ?? 'scripted';
    this.thinkingEffort = options.thinkingEffort ?? null;
    this.trace = options.trace === true ? writeTraceToStderr : options.trace || null;
    this.push(...scripts);
  }

  /** One turn per entry, each a list of parts streamed as given (an empty list is an empty answer). */
  static fromParts(
    turns: Iterable<readonly StreamedPart[]>,
    options: ScriptedProviderOptions = {},
  ): ScriptedProvider {
    return new ScriptedProvider(
      Array.from(turns, (parts) => turnFromParts(parts)),
      options,
    );
  }

  /** Queues more scripts (text or already-built turns) behind the remaining ones. */
  push(...scripts: (string | ScriptedTurn)[]): void {
    const parsed = scripts.map((script, index): QueuedScript => {
      if (typeof script !== 'string') return { turn: script, source: null };
      try {
        return { turn: parseScript(script), source: script };
      } catch (error) {
        if (error instanceof ScriptError && scripts.length > 1) {
          throw new ScriptError(error.line, error.detail, index + 1);
        }
        throw error;
      }
    });
    this.queue.push(...parsed);
  }

  /** Scripts not yet consumed. */
  get remaining(): number {
    return this.queue.length - this.head;
  }

  /** `generate()` calls so far, including ones that found the queue empty. */
  get callCount(): number {
    return this.calls;
  }

  async generate(request: GenerateRequest): Promise<StreamedMessage> {
    request.signal?.throwIfAborted();
    this.calls += 1;
    const next = this.queue[this.head];
    if (next === undefined) throw new ChatProviderError(`Scripted provider exhausted at call ${this.calls}.`);
    this.head += 1;
    // Release consumed entries now and then so a long-lived provider does not keep every turn.
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    this.trace?.(`SCRIPTED CALL ${this.calls}: ${JSON.stringify(next.source ?? next.turn)}`);
    return openTurnStream(next.turn, request.signal);
  }

  /** A copy with the given effort and its own copy of the remaining queue (and call count). */
  withThinking(effort: ThinkingEffort): ScriptedProvider {
    const copy = new ScriptedProvider([], {
      modelName: this.modelName,
      thinkingEffort: effort,
      trace: this.trace ?? undefined,
    });
    copy.queue = this.queue
      .slice(this.head)
      .map((entry) => ({ turn: cloneTurn(entry.turn), source: entry.source }));
    copy.calls = this.calls;
    return copy;
  }
}

function cloneTurn(turn: ScriptedTurn): ScriptedTurn {
  return structuredClone(turn);
}

function writeTraceToStderr(line: string): void {
  process.stderr.write(`${line}\n`);
}
