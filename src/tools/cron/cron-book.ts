import { randomBytes } from 'node:crypto';
import { appendFile } from 'node:fs/promises';
import { assertNever } from '../../util/assert-never.js';
import { readBoundedLines } from '../../util/bounded-lines.js';
import { type CronExpression, parseCronExpression } from './cron-expression.js';
import { oneShotJitterMs, recurringJitterMs } from './cron-jitter.js';
import {
  CRON_STALE_AFTER_MS,
  type CronFire,
  type CronJob,
  CronJobError,
  type CronRecord,
  cronRecordSchema,
  MAX_CRON_JOBS,
  MAX_CRON_PROMPT_BYTES,
  ONE_SHOT_MAX_AHEAD_MS,
} from './cron-job.js';

/** What a new job is: a cron expression (recurring or one-shot) or a one-shot after a delay. */
export type NewCronJob =
  | { kind: 'cron'; cron: string; recurring: boolean; prompt: string; createdBy: CronJob['created_by'] }
  | { kind: 'delay'; delayMs: number; prompt: string; createdBy: CronJob['created_by'] };

/** At most this many missed fires are counted when coalescing (a `* * * * *` job asleep for weeks). */
const MAX_COALESCE = 10_000;

/**
 * The session's scheduled prompts (Kimi Code's cron tasks), bound to the session: kept in
 * `cron.jsonl` of its folder as append-only records (add, delete, fired), so a crash at any instant
 * leaves a file that loads (a torn last line is skipped) and a resumed session finds its jobs. A fork
 * copies only the conversation, so it starts with none. Time comes from `now`, so tests drive it.
 */
export class CronBook {
  private readonly jobs = new Map<string, CronJob>();
  private readonly expressions = new Map<string, CronExpression>();
  private readonly listeners: (() => void)[] = [];
  private writes: Promise<void> = Promise.resolve();
  /** The file ends in a torn line (a crash mid-write): the next record starts on a line of its own. */
  private tornEnd = false;

  private constructor(
    private readonly file: string | null,
    readonly now: () => number,
  ) {}

  static async open(file: string | null, now: () => number = Date.now): Promise<CronBook> {
    const book = new CronBook(file, now);
    if (!file) return book;
    const { terminated } = await readRecords(file, (record) => {
      if (book.isLoadable(record)) book.apply(record);
    });
    book.tornEnd = !terminated;
    return book;
  }

  list(): CronJob[] {
    return [...this.jobs.values()];
  }

  get(id: string): CronJob | undefined {
    return this.jobs.get(id);
  }

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Adds a job after checking Kimi Code's limits; a CronJobError (or CronExpressionError) says why not. */
  add(init: NewCronJob): CronJob {
    if (this.jobs.size >= MAX_CRON_JOBS)
      throw new CronJobError(
        `This session already has ${MAX_CRON_JOBS} scheduled prompts, the most it may hold. Delete one first.`,
      );
    const bytes = Buffer.byteLength(init.prompt, 'utf8');
    if (!init.prompt.trim()) throw new CronJobError('The prompt is empty.');
    if (bytes > MAX_CRON_PROMPT_BYTES)
      throw new CronJobError(
        `The prompt is ${bytes} bytes; a scheduled prompt may be at most ${MAX_CRON_PROMPT_BYTES} bytes (UTF-8).`,
      );
    const now = this.now();
    const id = this.newId();
    let job: CronJob;
    if (init.kind === 'cron') {
      const expression = parseCronExpression(init.cron);
      const first = expression.nextAfter(now);
      if (first === null)
        throw new CronJobError(`The cron expression "${expression.text}" never fires within 5 years.`);
      if (!init.recurring && first - now > ONE_SHOT_MAX_AHEAD_MS)
        throw new CronJobError(
          `The one-shot "${expression.text}" would not fire until ${new Date(first).toISOString()}, more than a year out; a pinned date that already passed this year? Pick a future date.`,
        );
      job = base(id, init, now, { cron: expression.text, fire_at: null, recurring: init.recurring });
    } else {
      if (!Number.isFinite(init.delayMs) || init.delayMs <= 0)
        throw new CronJobError('The delay must be a positive number of seconds.');
      if (init.delayMs > ONE_SHOT_MAX_AHEAD_MS) throw new CronJobError('The delay is more than 350 days.');
      job = base(id, init, now, { cron: null, fire_at: now + init.delayMs, recurring: false });
    }
    this.record({ op: 'add', job });
    return job;
  }

  /** Deletes a job; false when there is none with that id. */
  remove(id: string): boolean {
    if (!this.jobs.has(id)) return false;
    this.record({ op: 'delete', id });
    return true;
  }

  /** When `job` fires next, jitter applied (Unix ms); null when it never does. */
  nextFireAt(job: CronJob): number | null {
    const ideal = this.nextIdeal(job);
    return ideal === null ? null : ideal + this.jitter(job, ideal);
  }

  /** The earliest next fire over all jobs, due or not; null without jobs. */
  earliestFireAt(): number | null {
    let earliest: number | null = null;
    for (const job of this.jobs.values()) {
      const at = this.nextFireAt(job);
      if (at !== null && (earliest === null || at < earliest)) earliest = at;
    }
    return earliest;
  }

  /**
   * The jobs due at `now`, earliest first, each as one fire: fires missed while the session was busy
   * or closed are coalesced into it (`coalescedCount`), as Kimi Code delivers them.
   */
  due(now: number = this.now()): CronFire[] {
    const fires: { fire: CronFire; at: number }[] = [];
    for (const job of this.jobs.values()) {
      const first = this.nextIdeal(job);
      if (first === null) continue;
      const at = first + this.jitter(job, first);
      if (at > now) continue;
      let count = 1;
      let coveredUntil = first;
      const expression = job.cron && job.recurring ? this.expression(job.cron) : null;
      while (expression && count < MAX_COALESCE) {
        const next = expression.nextAfter(coveredUntil);
        if (next === null || next + this.jitter(job, next) > now) break;
        count += 1;
        coveredUntil = next;
      }
      const stale = job.recurring && now - job.created_at >= CRON_STALE_AFTER_MS;
      fires.push({ fire: { job, coalescedCount: count, stale, coveredUntil }, at });
    }
    return fires.sort((a, b) => a.at - b.at).map(({ fire }) => fire);
  }

  /** A fire was handed to a turn: a one-shot or a stale job goes, a recurring one moves on. */
  delivered(fire: CronFire): void {
    const { job } = fire;
    if (!this.jobs.has(job.id)) return;
    if (!job.recurring || fire.stale) this.record({ op: 'delete', id: job.id });
    else this.record({ op: 'fired', id: job.id, last_fired_at: fire.coveredUntil });
  }

  /** Resolves when every record so far is on disk. */
  flush(): Promise<void> {
    return this.writes;
  }

  private nextIdeal(job: CronJob): number | null {
    if (job.cron === null) return job.last_fired_at === null ? job.fire_at : null;
    if (!job.recurring && job.last_fired_at !== null) return null;
    const from = Math.max(job.created_at, job.last_fired_at ?? job.created_at);
    return this.expression(job.cron).nextAfter(from);
  }

  private jitter(job: CronJob, idealMs: number): number {
    if (job.cron === null) return 0;
    return job.recurring
      ? recurringJitterMs(job.id, this.expression(job.cron), idealMs)
      : oneShotJitterMs(job.id, idealMs, job.created_at);
  }

  private expression(text: string): CronExpression {
    let expression = this.expressions.get(text);
    if (!expression) {
      expression = parseCronExpression(text);
      this.expressions.set(text, expression);
    }
    return expression;
  }

  private newId(): string {
    for (;;) {
      const id = randomBytes(4).toString('hex');
      if (!this.jobs.has(id)) return id;
    }
  }

  private record(record: CronRecord): void {
    this.apply(record);
    const { file } = this;
    if (file) {
      const line = `${this.tornEnd ? '\n' : ''}${JSON.stringify(record)}\n`;
      this.tornEnd = false;
      this.writes = this.writes.then(() => appendFile(file, line, { encoding: 'utf8', mode: 0o600 }));
    }
    for (const listener of [...this.listeners]) listener();
  }

  /**
   * A loaded record is held to what `add` checks: the file may have been planted or edited, so the
   * 50-job and 8 KiB limits hold on load too (the first jobs are kept), and a job whose expression
   * no longer parses (a hand edit) is left out rather than breaking the session.
   */
  private isLoadable(record: CronRecord): boolean {
    if (record.op !== 'add') return true;
    const { job } = record;
    if (!this.jobs.has(job.id) && this.jobs.size >= MAX_CRON_JOBS) return false;
    if (!job.prompt.trim() || Buffer.byteLength(job.prompt, 'utf8') > MAX_CRON_PROMPT_BYTES) return false;
    if (job.cron === null) return job.fire_at !== null;
    try {
      parseCronExpression(job.cron);
      return true;
    } catch {
      return false;
    }
  }

  private apply(record: CronRecord): void {
    switch (record.op) {
      case 'add':
        this.jobs.set(record.job.id, record.job);
        return;
      case 'delete':
        this.jobs.delete(record.id);
        return;
      case 'fired': {
        const job = this.jobs.get(record.id);
        if (job) this.jobs.set(record.id, { ...job, last_fired_at: record.last_fired_at });
        return;
      }
      default:
        assertNever(record);
    }
  }
}

function base(
  id: string,
  init: NewCronJob,
  now: number,
  what: Pick<CronJob, 'cron' | 'fire_at' | 'recurring'>,
): CronJob {
  return {
    id,
    ...what,
    prompt: init.prompt,
    created_at: now,
    last_fired_at: null,
    created_by: init.createdBy,
  };
}

/**
 * The longest `cron.jsonl` line read: an 8 KiB prompt JSON-escaped (at most 6 bytes a byte) and the
 * job's other fields fit well within it; a longer line (planted, or torn into the next) is skipped
 * as it streams past, never held whole.
 */
const MAX_CRON_LINE_BYTES = 128 * 1024;

/**
 * Calls `onRecord` with each record of `cron.jsonl`; unreadable lines (a torn last line, a hand
 * edit, a line past the bound) are skipped. A missing or unreadable file has none.
 */
async function readRecords(
  file: string,
  onRecord: (record: CronRecord) => void,
): Promise<{ terminated: boolean }> {
  try {
    return await readBoundedLines(
      file,
      (line) => {
        if (!line.trim()) return;
        try {
          const parsed = cronRecordSchema().safeParse(JSON.parse(line));
          if (parsed.success) onRecord(parsed.data);
        } catch {}
      },
      { maxLineBytes: MAX_CRON_LINE_BYTES },
    );
  } catch {
    return { terminated: true };
  }
}
