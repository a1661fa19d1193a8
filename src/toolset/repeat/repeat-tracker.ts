import {
  measureRepetition,
  type RepeatPolicy,
  type RepeatTier,
  type Repetition,
  repeatTier,
} from './repeat-detector.js';

/** One call of a step as the repeat tracker remembers it. The soul passes these back to `beginStep`. */
export interface StepCall {
  readonly toolName: string;
  /** Exact canonical key (name + canonical arguments), used for same-step dedup. */
  readonly callKey: string;
  /** The key loop detection compares (whitespace-normalised when the policy says so). */
  readonly loopKey: string;
  /** Identifies the result; equal ids mean identical results. Unset until the call finished. */
  resultId?: string | undefined;
}

export interface RepeatAssessment extends Repetition {
  tier: RepeatTier | null;
  /** Tool names of the repeating pattern, oldest first (one name for a run of one call). */
  cycle: string[];
}

/** Enough history to measure every period up to 4 past the force-stop threshold. */
const HISTORY_LIMIT = 64;

/**
 * Cross-step repeat bookkeeping for one turn (Kimi CLI's `begin_step` / `end_step`). Calls are
 * registered in call order as they are dispatched; a call is assessed once it and every earlier call
 * of its step have results, so the answer does not depend on which tool finished first.
 */
export class RepeatTracker {
  private history: { id: string; toolName: string }[] = [];
  private seen = new Set<string>();
  private current: StepCall[] = [];
  private stepEnded = false;
  private unsettledCounter = 0;
  private stopRequested = false;

  constructor(readonly policy: RepeatPolicy) {}

  /**
   * Starts a step. `previousCalls` is what the last `endStep` returned; an empty list starts a new
   * turn (also after a D-Mail, or a retry of the first step) and forgets everything seen.
   */
  beginStep(previousCalls: readonly StepCall[]): void {
    this.current = [];
    this.stepEnded = false;
    this.stopRequested = false;
    if (previousCalls.length === 0) {
      this.history = [];
      this.seen.clear();
      return;
    }
    for (const call of previousCalls) this.seen.add(call.loopKey);
  }

  /** True once a call of this step reached the force-stop tier: the turn ends after this step. */
  get forceStop(): boolean {
    return this.stopRequested;
  }

  /** Registers a call of this step, in call order. Its `resultId` is set once it has finished. */
  register(call: StepCall): void {
    this.current.push(call);
  }

  /** Whether an earlier step of this turn made the same call (reminders need that). */
  seenInEarlierStep(loopKey: string): boolean {
    return this.seen.has(loopKey);
  }

  /**
   * Measures the repetition ending at `call`. Call it once that call and every earlier call of its
   * step have finished. Returns null if `call` is not part of the current step (a new one began).
   */
  assess(call: StepCall): RepeatAssessment | null {
    const index = this.current.indexOf(call);
    if (index < 0) return null;
    const stepPart = this.current
      .slice(0, index + 1)
      .map((call) => ({ id: this.elementId(call), toolName: call.toolName }));
    const sequence = [...this.history, ...stepPart];
    const repetition = measureRepetition(
      sequence.map((element) => element.id),
      this.policy.maxPeriod,
    );
    const tier = repeatTier(repetition.count);
    if (tier === 'stop') this.stopRequested = true;
    const cycle = sequence.slice(sequence.length - repetition.period).map((element) => element.toolName);
    return { ...repetition, tier, cycle };
  }

  /** Ends the step: its calls join the history and the seen set. Idempotent within a step. */
  endStep(): StepCall[] {
    if (!this.stepEnded) {
      this.stepEnded = true;
      for (const call of this.current) {
        this.history.push({ id: this.elementId(call), toolName: call.toolName });
        this.seen.add(call.loopKey);
      }
      if (this.history.length > HISTORY_LIMIT) this.history = this.history.slice(-HISTORY_LIMIT);
    }
    return this.current.map((call) => ({ ...call }));
  }

  private elementId(call: StepCall): string {
    if (!this.policy.compareResults) return call.loopKey;
    // A call that never finished (cancelled) gets a unique id so it breaks any streak.
    call.resultId ??= `unsettled-${++this.unsettledCounter}`;
    return `${call.loopKey}\u0000${call.resultId}`;
  }
}
