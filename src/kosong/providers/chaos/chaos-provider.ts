import { APIConnectionError, APIStatusError, APITimeoutError } from '../../errors.js';
import type { StreamedPart, ThinkingEffort } from '../../message.js';
import type { ChatProvider, GenerateRequest, StreamedMessage } from '../../provider.js';
import { type ChaosFault, type ChaosOptions, type ChaosPlan, planChaos } from './chaos-options.js';
import { type CutPoint, cutStream, stallStream } from './chaos-streams.js';
import { SeededRandom } from './seeded-random.js';

/** What the chaos provider did with one call. */
export interface ChaosOutcome {
  /** 1-based number of the `generate()` call. */
  call: number;
  /** The injected fault, or null when the call went through untouched. */
  fault: ChaosFault | null;
  /** For a `cut` or a `stall`: how many parts of the real stream it planned to let through. */
  partsBeforeCut?: number;
}

/**
 * Wraps a chat provider and makes some of its calls fail, to exercise retry and recovery: HTTP
 * errors, connection failures and timeouts at request time, empty or thinking-only answers, and
 * streams that drop part-way. Faults are drawn from a seeded generator, one draw per call (plus one
 * for a cut's length), so a seed replays the same faults for the same sequence of calls. Only a
 * passed-through or cut call reaches the wrapped provider.
 */
export class ChaosProvider implements ChatProvider {
  readonly name = 'chaos';
  readonly seed: number;
  private readonly plan: ChaosPlan;
  private random: SeededRandom;
  private calls = 0;
  private history: ChaosOutcome[] = [];
  /** Errors this wrapper made up, so recovery can tell them from the wrapped provider's own. */
  private readonly madeUp = new WeakSet<Error>();

  constructor(
    readonly inner: ChatProvider,
    options: ChaosOptions,
  ) {
    this.plan = planChaos(options);
    this.seed = this.plan.seed;
    this.random = new SeededRandom(this.plan.seed);
  }

  get modelName(): string {
    return this.inner.modelName;
  }

  get thinkingEffort(): ThinkingEffort | null {
    return this.inner.thinkingEffort;
  }

  /** Every call so far, injected or not, in order. */
  get outcomes(): readonly ChaosOutcome[] {
    return this.history;
  }

  /** Only the calls that got a fault. */
  get injected(): ChaosOutcome[] {
    return this.history.filter((outcome) => outcome.fault !== null);
  }

  async generate(request: GenerateRequest): Promise<StreamedMessage> {
    request.signal?.throwIfAborted();
    this.calls += 1;
    const outcome = this.draw();
    this.history.push(outcome);
    const { fault } = outcome;
    switch (fault) {
      case null:
        return this.inner.generate(request);
      case 'connection':
        throw this.madeUpError(new APIConnectionError('Chaos: injected connection failure.'));
      case 'timeout':
        throw this.madeUpError(new APITimeoutError('Chaos: injected request timeout.'));
      case 'empty':
        return syntheticStream([], request.signal);
      case 'think_only':
        return syntheticStream(
          [{ type: 'think', think: 'Chaos: reasoning that never reaches an answer.' }],
          request.signal,
        );
      case 'cut':
        return this.cut(request, { kind: 'after_parts', parts: outcome.partsBeforeCut ?? 1 });
      case 'cut_after_text':
        return this.cut(request, { kind: 'after_text' });
      case 'cut_after_call':
        return this.cut(request, { kind: 'after_call' });
      case 'cut_mid_arguments':
        return this.cut(request, { kind: 'mid_arguments' });
      case 'stall':
        return stallStream(await this.inner.generate(request), outcome.partsBeforeCut ?? 0, request.signal);
      default: {
        const status = Number(fault);
        throw this.madeUpError(
          new APIStatusError(`Chaos: injected HTTP ${status} error.`, status, null, this.plan.retryAfterMs),
        );
      }
    }
  }

  withThinking(effort: ThinkingEffort): ChaosProvider {
    const copy = new ChaosProvider(this.inner.withThinking(effort), {
      seed: this.plan.seed,
      rates: Object.fromEntries(this.plan.faults.map(({ fault, rate }) => [fault, rate])),
      retryAfterMs: this.plan.retryAfterMs,
      maxPartsBeforeCut: this.plan.maxPartsBeforeCut,
    });
    // The copy continues from where this one is, then the two draw independently.
    copy.random = this.random.clone();
    copy.calls = this.calls;
    copy.history = this.history.map((outcome) => ({ ...outcome }));
    return copy;
  }

  /** A made-up failure is transient by construction, so one more try is always worth it. */
  async onRetryableError(error: Error): Promise<boolean> {
    if (this.madeUp.has(error)) return true;
    return this.inner.onRetryableError ? this.inner.onRetryableError(error) : false;
  }

  private draw(): ChaosOutcome {
    const roll = this.random.next();
    let threshold = 0;
    for (const { fault, rate } of this.plan.faults) {
      threshold += rate;
      if (roll < threshold) {
        if (fault === 'cut') {
          const partsBeforeCut = 1 + Math.floor(this.random.next() * this.plan.maxPartsBeforeCut);
          return { call: this.calls, fault, partsBeforeCut };
        }
        if (fault === 'stall') {
          const partsBeforeCut = Math.floor(this.random.next() * (this.plan.maxPartsBeforeCut + 1));
          return { call: this.calls, fault, partsBeforeCut };
        }
        return { call: this.calls, fault };
      }
    }
    return { call: this.calls, fault: null };
  }

  private madeUpError<E extends Error>(error: E): E {
    this.madeUp.add(error);
    return error;
  }

  /** Lets the real stream through up to `point`, then drops the "connection". */
  private async cut(request: GenerateRequest, point: CutPoint): Promise<StreamedMessage> {
    const stream = await this.inner.generate(request);
    return cutStream(stream, point, (passed) =>
      this.madeUpError(new APIConnectionError(`Chaos: connection dropped after ${passed} streamed parts.`)),
    );
  }
}

function syntheticStream(parts: StreamedPart[], signal: AbortSignal | undefined): StreamedMessage {
  async function* play(): AsyncGenerator<StreamedPart> {
    for (const part of parts) {
      signal?.throwIfAborted();
      yield { ...part };
    }
    signal?.throwIfAborted();
  }
  return { id: null, usage: null, [Symbol.asyncIterator]: play };
}
