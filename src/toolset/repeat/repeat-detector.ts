/**
 * Loop detection over the flattened sequence of a turn's tool calls. Pure functions: the toolset
 * decides what an element of the sequence is (a call key, or a call key plus its result) and asks
 * how many times the pattern ending at the newest element has repeated.
 */

export type RepeatTier = 'r1' | 'r2' | 'r3' | 'stop';

/** Streak thresholds of Kimi CLI: 3 → r1, 5 → r2, 8 → r3, 12 → force stop. */
export const REPEAT_TIER_STARTS: readonly (readonly [number, RepeatTier])[] = [
  [12, 'stop'],
  [8, 'r3'],
  [5, 'r2'],
  [3, 'r1'],
];

export function repeatTier(repetitions: number): RepeatTier | null {
  for (const [start, tier] of REPEAT_TIER_STARTS) if (repetitions >= start) return tier;
  return null;
}

export interface RepeatPolicy {
  /**
   * Longest cycle counted as a loop: 1 counts only runs of one call (A,A,A); 2 also counts A,B,A,B;
   * up to 4 counts any cycle of up to four calls.
   */
  maxPeriod: number;
  /** Count a repeat only when the result is identical too, so a poll that makes progress is no loop. */
  compareResults: boolean;
  /** Compare string arguments with whitespace collapsed, so re-spacing a command does not escape detection. */
  normaliseWhitespace: boolean;
}

/** Kimi CLI's behaviour: consecutive identical calls only, byte-exact arguments, results ignored. */
export const ORIGINAL_REPEAT_POLICY: RepeatPolicy = {
  maxPeriod: 1,
  compareResults: false,
  normaliseWhitespace: false,
};

/** kimi-ts's default: cycles up to 4, results compared, whitespace normalised. */
export const DEFAULT_REPEAT_POLICY: RepeatPolicy = {
  maxPeriod: 4,
  compareResults: true,
  normaliseWhitespace: true,
};

export interface Repetition {
  /** How many times the pattern has occurred back to back, counting the newest element's occurrence. */
  count: number;
  /** Length of the repeating pattern (1 for a run of one call). */
  period: number;
}

/**
 * For each period p ≤ maxPeriod, measures how far back from the end every element equals the one p
 * places before it; that stretch plus one period is the repeated region, and the region's length
 * divided by p is the repetition count. The period with the most repetitions wins (the shortest on
 * a tie), so A,A,A,A counts 4 with period 1, and A,B,A,B,A,B counts 3 with period 2.
 */
export function measureRepetition(sequence: readonly string[], maxPeriod: number): Repetition {
  const n = sequence.length;
  let best: Repetition = { count: n === 0 ? 0 : 1, period: 1 };
  for (let period = 1; period <= maxPeriod && period <= n; period++) {
    let matching = 0;
    for (let i = n - 1; i >= period && sequence[i] === sequence[i - period]; i--) matching++;
    const count = Math.floor((matching + period) / period);
    if (count > best.count) best = { count, period };
  }
  return best;
}
