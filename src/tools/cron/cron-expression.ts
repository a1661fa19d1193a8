import { Cron } from 'croner';

/** The five fields of a cron expression, in order, as error messages name them. */
export const CRON_FIELDS = ['minute', 'hour', 'day-of-month', 'month', 'day-of-week'] as const;
export type CronField = (typeof CRON_FIELDS)[number];

/** A valid 5-field cron expression in local time, normalised to single spaces. */
export interface CronExpression {
  readonly text: string;
  /** The first fire strictly after `afterMs`, in Unix ms; null when there is none within 5 years. */
  nextAfter(afterMs: number): number | null;
}

export class CronExpressionError extends Error {
  override name = 'CronExpressionError';
  constructor(
    message: string,
    /** The field at fault, when one is. */
    readonly field: CronField | null,
  ) {
    super(message);
  }
}

const FIVE_YEARS_MS = 5 * 366 * 24 * 3600_000;

function compile(text: string): Cron {
  // `paused`: parsing only; the scheduler keeps its own clock and timer. `domAndDow`: Vixie cron's
  // rule (a restricted day-of-month OR a restricted day-of-week), as Kimi Code reads expressions.
  return new Cron(text, { paused: true, mode: '5-part', domAndDow: false });
}

/**
 * Reads a standard 5-field expression (`M H DoM Mon DoW`, local time) with croner. A bad one is a
 * CronExpressionError that names the field: croner's own message does not always say which, so each
 * field is tried alone against wildcards to find it.
 */
export function parseCronExpression(raw: string): CronExpression {
  const fields = raw.trim().split(/\s+/).filter(Boolean);
  if (fields.length !== 5)
    throw new CronExpressionError(
      `A cron expression has exactly 5 fields (minute hour day-of-month month day-of-week); got ${fields.length}.`,
      null,
    );
  const text = fields.join(' ');
  let cron: Cron;
  try {
    cron = compile(text);
  } catch (error) {
    const field = faultyField(fields);
    const detail = error instanceof Error ? error.message.replace(/^CronPattern:\s*/, '') : String(error);
    throw new CronExpressionError(
      field
        ? `The ${field} field ${JSON.stringify(fields[CRON_FIELDS.indexOf(field)])} is invalid (${detail}).`
        : `Invalid cron expression (${detail}).`,
      field,
    );
  }
  return {
    text,
    nextAfter(afterMs) {
      const next = cron.nextRun(new Date(afterMs));
      if (!next) return null;
      const at = next.getTime();
      return at - afterMs > FIVE_YEARS_MS ? null : at;
    },
  };
}

function faultyField(fields: readonly string[]): CronField | null {
  for (let i = 0; i < CRON_FIELDS.length; i++) {
    const probe = CRON_FIELDS.map((_, j) => (j === i ? fields[i] : '*')).join(' ');
    try {
      compile(probe);
    } catch {
      return CRON_FIELDS[i] ?? null;
    }
  }
  return null;
}
