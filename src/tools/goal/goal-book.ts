import { appendFile, readFile } from 'node:fs/promises';
import { z } from 'zod';
import { builtOnFirstUse } from '../../util/built-on-first-use.js';

/**
 * The session's goal (Kimi Code's goal mode): an objective the agent keeps working on across turns
 * until it is complete (on evidence, when a check is given), blocked, or paused. `complete` is
 * transient: the goal is cleared right after. One goal per session, kept in `goal.jsonl` of the
 * session folder as append-only snapshots (the last whole line wins), so a crash loses nothing.
 */
/**
 * goal.jsonl's record schemas, built on first use: a new session has no goal.jsonl, and nothing
 * parses a record before the first model request.
 */
function buildRecordSchemas() {
  const goalStatus = z.enum(['active', 'paused', 'blocked', 'complete']);
  const limit = z.number().int().positive().nullable();
  const goalBudget = z.object({ maxTurns: limit, maxTokens: limit, maxTimeMs: limit });
  const goal = z.object({
    id: z.string(),
    objective: z.string(),
    /** A shell command whose exit 0 is the evidence of completion; null: the model's word. */
    check: z.string().nullable(),
    status: goalStatus,
    budget: goalBudget,
    turnsUsed: z.number().int().nonnegative(),
    tokensUsed: z.number().int().nonnegative(),
    /** Time spent active, up to the last time it stopped being active. */
    activeMs: z.number().nonnegative(),
    /** Why it is paused or blocked (or how it completed). */
    reason: z.string().nullable(),
    /** Goal turns in a row that did nothing (no tool result besides the goal tools). */
    idleTurns: z.number().int().nonnegative(),
  });
  return {
    goal,
    record: z.object({ goal: goal.nullable() }),
    /**
     * The tool results a goal's turns produced (their identities), appended as they come: a goal
     * that goes on in another process (a fleet's next job) keeps its no-progress breaker. Readers
     * of the goal skip these lines.
     */
    seenRecord: z.object({ seen: z.array(z.string().max(1000)).max(1000), goal_id: z.string() }),
  };
}
const recordSchemas = builtOnFirstUse(buildRecordSchemas);

export type Goal = z.output<ReturnType<typeof buildRecordSchemas>['goal']>;
export type GoalStatus = Goal['status'];
export type GoalBudget = Goal['budget'];

export const NO_BUDGET: GoalBudget = { maxTurns: null, maxTokens: null, maxTimeMs: null };

/** At most this many result identities are read back for a goal. */
const MAX_SEEN = 20_000;

export const MAX_OBJECTIVE_CHARS = 4000;
/** Goal turns in a row without progress that block the goal. */
export const NO_PROGRESS_TURNS = 3;

/** What front ends are told after each change (the GoalUpdated event). */
export interface GoalView {
  goal: Goal | null;
  /** Time spent active so far, the running stretch included. */
  elapsedMs: number;
}

export interface NewGoal {
  objective: string;
  check?: string | null | undefined;
  budget?: Partial<GoalBudget> | undefined;
  /** Replaces a goal that exists (else creating one fails). */
  replace?: boolean | undefined;
}

/** The states a run of print mode can end a goal in, for its exit code. */
export type GoalRunEnd = 'complete' | 'blocked' | 'paused';

export class GoalError extends Error {
  override name = 'GoalError';
}

export class GoalBook {
  private goal: Goal | null;
  /** When the running active stretch began (not persisted: a resumed goal is never active). */
  private activeSince: number | null = null;
  private readonly listeners: ((view: GoalView) => void)[] = [];
  /** How the last goal this process drove ended (null: none was touched in this run). */
  private lastEnd: GoalRunEnd | null = null;
  private touched = false;
  /** Whether opening turned an active goal paused (nobody has been told yet). */
  private parked = false;
  private writes: Promise<void> = Promise.resolve();
  /** Identities of the tool results the current goal's turns produced (for the no-progress breaker). */
  private seenResults = new Set<string>();

  private constructor(
    private readonly file: string | null,
    goal: Goal | null,
    private readonly now: () => number,
  ) {
    this.goal = goal;
  }

  /**
   * Reads the session's goal. An active goal read back is paused: the turn that drove it died with
   * the process that ran it, and going on by itself would spend the budget unasked.
   */
  static async open(
    file: string | null,
    now: () => number = Date.now,
    options: { keepActive?: boolean } = {},
  ): Promise<GoalBook> {
    const { goal, seen } = file ? await readLastGoal(file) : { goal: null, seen: [] };
    const book = new GoalBook(file, goal, now);
    // A fleet's next job goes on with the goal its previous job left active: by design, not a resume.
    if (goal?.status === 'active' && options.keepActive) {
      book.activeSince = now();
      book.touched = true;
      book.seenResults = new Set(seen);
    } else if (goal?.status === 'active') {
      book.goal = { ...goal, status: 'paused', reason: 'The session was resumed; /goal resume continues.' };
      book.parked = true;
      book.persist();
    }
    return book;
  }

  /** Whether opening paused an active goal: what the session's history says of it is no longer so. */
  get parkedOnOpen(): boolean {
    return this.parked;
  }

  current(): Goal | null {
    return this.goal;
  }

  view(): GoalView {
    return { goal: this.goal, elapsedMs: this.elapsedMs() };
  }

  /** How the goal set or resumed in this process stands, for print mode's exit code. */
  runEnd(): GoalRunEnd | null {
    if (!this.touched) return null;
    const status = this.goal?.status;
    if (status === 'paused' || status === 'blocked') return status;
    // Still active after a run means the run stopped without saying why: treat as paused.
    if (status === 'active') return 'paused';
    return this.lastEnd;
  }

  onChange(listener: (view: GoalView) => void): void {
    this.listeners.push(listener);
  }

  create(input: NewGoal): Goal {
    const objective = input.objective.trim();
    if (!objective) throw new GoalError('The objective is empty.');
    if ([...objective].length > MAX_OBJECTIVE_CHARS)
      throw new GoalError(`The objective is too long (at most ${MAX_OBJECTIVE_CHARS} characters).`);
    if (this.goal && !input.replace)
      throw new GoalError(
        `A goal exists (${this.goal.status}): "${this.goal.objective}". Clear it first (/goal clear).`,
      );
    const check = input.check?.trim() || null;
    this.touched = true;
    this.lastEnd = null;
    this.seenResults = new Set();
    this.goal = {
      id: `goal-${this.now().toString(36)}`,
      objective,
      check,
      status: 'active',
      budget: { ...NO_BUDGET, ...input.budget },
      turnsUsed: 0,
      tokensUsed: 0,
      activeMs: 0,
      reason: null,
      idleTurns: 0,
    };
    this.activeSince = this.now();
    this.changed();
    return this.goal;
  }

  /** Moves the goal to `status`; `complete` clears it. Returns false without a goal. */
  setStatus(status: GoalStatus, reason: string | null = null): boolean {
    const goal = this.goal;
    if (!goal) return false;
    const activeMs = this.elapsedMs();
    this.activeSince = status === 'active' ? this.now() : null;
    this.touched = true;
    if (status === 'complete') {
      this.lastEnd = 'complete';
      this.goal = { ...goal, status, activeMs, reason };
      this.changed();
      this.goal = null;
      this.changed();
      return true;
    }
    this.lastEnd = status === 'active' ? null : status;
    // Resuming starts a fresh attempt: the old reason and the no-progress count go.
    this.goal = { ...goal, status, activeMs, reason, idleTurns: status === 'active' ? 0 : goal.idleTurns };
    this.changed();
    return true;
  }

  clear(): boolean {
    if (!this.goal) return false;
    this.goal = null;
    this.activeSince = null;
    this.changed();
    return true;
  }

  setBudget(budget: Partial<GoalBudget>): boolean {
    if (!this.goal) return false;
    this.goal = { ...this.goal, budget: { ...this.goal.budget, ...budget } };
    this.changed();
    return true;
  }

  /** A goal turn starts: it counts against the turn budget. */
  beginTurn(): void {
    if (this.goal?.status !== 'active') return;
    this.goal = { ...this.goal, turnsUsed: this.goal.turnsUsed + 1 };
    this.changed();
  }

  /** A goal turn ended; `progressed`: it produced a tool result besides the goal tools. */
  endTurn(progressed: boolean): void {
    if (this.goal?.status !== 'active') return;
    const idleTurns = progressed ? 0 : this.goal.idleTurns + 1;
    this.goal = { ...this.goal, idleTurns };
    this.changed();
    if (idleTurns >= NO_PROGRESS_TURNS)
      this.setStatus('blocked', `No progress in ${NO_PROGRESS_TURNS} goal turns in a row.`);
  }

  /**
   * Records the identities of a step's tool results (equal ids: identical results); true if any is
   * new to this goal. The same output again (the same `ls`, the same failing test) is no progress.
   */
  noteResults(resultIds: readonly string[]): boolean {
    const fresh: string[] = [];
    for (const id of resultIds) {
      if (this.seenResults.has(id)) continue;
      this.seenResults.add(id);
      fresh.push(id);
    }
    const goalId = this.goal?.id;
    if (fresh.length > 0 && goalId !== undefined)
      this.append(
        `${JSON.stringify({ seen: fresh.slice(0, 1000).map((id) => id.slice(0, 1000)), goal_id: goalId })}\n`,
      );
    return fresh.length > 0;
  }

  /** Tokens a model step of an active goal used. */
  addTokens(tokens: number): void {
    if (this.goal?.status !== 'active' || tokens <= 0) return;
    this.goal = { ...this.goal, tokensUsed: this.goal.tokensUsed + tokens };
    this.changed();
  }

  /**
   * The reason an active goal's budget is spent, or null while it holds. Within a turn (`midTurn`)
   * the turn that runs is not past the turn budget: only tokens and time are.
   */
  budgetReached(midTurn = false): string | null {
    const goal = this.goal;
    if (goal?.status !== 'active') return null;
    const { maxTurns, maxTokens, maxTimeMs } = goal.budget;
    if (!midTurn && maxTurns !== null && goal.turnsUsed >= maxTurns)
      return `Turn budget reached: ${goal.turnsUsed} of ${maxTurns} turns.`;
    if (maxTokens !== null && goal.tokensUsed >= maxTokens)
      return `Token budget reached: ${goal.tokensUsed} of ${maxTokens} tokens.`;
    const elapsed = this.elapsedMs();
    if (maxTimeMs !== null && elapsed >= maxTimeMs)
      return `Time budget reached: ${formatDuration(elapsed)} of ${formatDuration(maxTimeMs)}.`;
    return null;
  }

  /** Blocks an active goal whose budget is spent; true if it did. */
  enforceBudget(midTurn = false): boolean {
    const reason = this.budgetReached(midTurn);
    if (reason === null) return false;
    this.setStatus('blocked', reason);
    return true;
  }

  /** Waits for the snapshots written so far. */
  flush(): Promise<void> {
    return this.writes;
  }

  private elapsedMs(): number {
    const goal = this.goal;
    if (!goal) return 0;
    return goal.activeMs + (this.activeSince === null ? 0 : Math.max(0, this.now() - this.activeSince));
  }

  private changed(): void {
    this.persist();
    const view = this.view();
    for (const listener of this.listeners) listener(view);
  }

  private persist(): void {
    const file = this.file;
    if (!file) return;
    this.append(`${JSON.stringify({ goal: this.goal })}\n`);
  }

  private append(line: string): void {
    const file = this.file;
    if (!file) return;
    // Serialised, so the snapshots land in the order they were taken.
    this.writes = this.writes.then(() => appendFile(file, line, { mode: 0o600 })).catch(() => {});
  }
}

async function readLastGoal(file: string): Promise<{ goal: Goal | null; seen: string[] }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return { goal: null, seen: [] };
  }
  const lines = text.split('\n');
  let goal: Goal | null | undefined;
  const seen: { goalId: string; ids: string[] }[] = [];
  // A torn last line (a crash mid-write) is skipped: the one before it is the goal.
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]?.trim();
    if (!line) continue;
    try {
      const json: unknown = JSON.parse(line);
      const parsed = recordSchemas().record.safeParse(json);
      if (parsed.success) {
        goal ??= parsed.data.goal;
        continue;
      }
      const ids = recordSchemas().seenRecord.safeParse(json);
      if (ids.success && seen.length < MAX_SEEN) seen.push({ goalId: ids.data.goal_id, ids: ids.data.seen });
    } catch {}
  }
  const current = goal ?? null;
  const ids = seen.filter((record) => record.goalId === current?.id).flatMap((record) => record.ids);
  return { goal: current, seen: ids.slice(0, MAX_SEEN) };
}

/** `30m`, `2h`, `90s`, `1h30m`, or plain seconds; null if it is none of these. */
export function parseDuration(text: string): number | null {
  const trimmed = text.trim().toLowerCase();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000 || null;
  const match = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(trimmed);
  if (!match || trimmed === '') return null;
  const [, h, m, s] = match;
  const ms = (Number(h ?? 0) * 3600 + Number(m ?? 0) * 60 + Number(s ?? 0)) * 1000;
  return ms > 0 ? ms : null;
}

export function formatDuration(ms: number): string {
  const total = Math.round(ms / 1000);
  if (total < 60) return `${total}s`;
  const minutes = Math.floor(total / 60);
  if (minutes < 60) return `${minutes}m${String(total % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}

/** One line for a status bar: `goal: <objective> — <state> · turns a/b`. */
export function goalLine(view: GoalView, maxObjectiveChars = 60): string | null {
  const { goal } = view;
  if (!goal) return null;
  const chars = [...goal.objective.replace(/\s+/g, ' ')];
  const objective =
    chars.length > maxObjectiveChars ? `${chars.slice(0, maxObjectiveChars - 1).join('')}…` : chars.join('');
  const turns = `turns ${goal.turnsUsed}/${goal.budget.maxTurns ?? '∞'}`;
  return `goal: ${objective} — ${goal.status} · ${turns}`;
}
