import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CronBook } from './cron-book.js';
import { CronExpressionError, parseCronExpression } from './cron-expression.js';
import { CRON_STALE_AFTER_MS, CronJobError, MAX_CRON_JOBS } from './cron-job.js';

let dir: string;
let file: string;
/** A fake wall clock, in local time so cron fields read as written. */
let now: number;
const clock = () => now;
const MIN = 60_000;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kimi-ts-cron-'));
  file = join(dir, 'cron.jsonl');
  now = new Date(2026, 11, 3, 10, 0, 20).getTime();
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('parseCronExpression', () => {
  it.each([
    ['61 * * * *', 'minute'],
    ['* 24 * * *', 'hour'],
    ['* * 0 * *', 'day-of-month'],
    ['* * * 13 *', 'month'],
    ['* * * * 9', 'day-of-week'],
    ['*/0 * * * *', 'minute'],
    ['* x * * *', 'hour'],
  ])('names the bad field of %s', (text, field) => {
    const error = (() => {
      try {
        parseCronExpression(text);
      } catch (caught) {
        return caught;
      }
      throw new Error('parsed');
    })();
    expect(error).toBeInstanceOf(CronExpressionError);
    expect((error as CronExpressionError).field).toBe(field);
    expect((error as Error).message).toContain(`The ${field} field`);
  });

  it.each(['* * * *', '0 0 * * * *', '@hourly', ''])('wants exactly 5 fields: %j', (text) => {
    expect(() => parseCronExpression(text)).toThrow(/exactly 5 fields/);
  });

  it('computes the next match in local time', () => {
    const expression = parseCronExpression(' */5   *  * * * ');
    expect(expression.text).toBe('*/5 * * * *');
    expect(expression.nextAfter(now)).toBe(new Date(2026, 11, 3, 10, 5).getTime());
  });
});

describe('CronBook', () => {
  it('enforces the limits: 50 jobs, 8 KiB prompts, impossible dates, far one-shots', async () => {
    const book = await CronBook.open(null, clock);
    expect(() =>
      book.add({
        kind: 'cron',
        cron: '7 * * * *',
        recurring: true,
        prompt: 'é'.repeat(4097),
        createdBy: 'model',
      }),
    ).toThrow(/8192 bytes/);
    expect(() =>
      book.add({ kind: 'cron', cron: '0 0 31 2 *', recurring: true, prompt: 'x', createdBy: 'model' }),
    ).toThrow(/never fires/);
    expect(() =>
      book.add({ kind: 'cron', cron: '0 9 1 1 *', recurring: false, prompt: 'x', createdBy: 'model' }),
    ).not.toThrow();
    expect(() =>
      book.add({ kind: 'cron', cron: '0 9 2 12 *', recurring: false, prompt: 'x', createdBy: 'model' }),
    ).toThrow(/more than a year out/);
    for (let i = book.list().length; i < MAX_CRON_JOBS; i++)
      book.add({ kind: 'cron', cron: '7 * * * *', recurring: true, prompt: `p${i}`, createdBy: 'model' });
    expect(() => book.add({ kind: 'delay', delayMs: 1000, prompt: 'one more', createdBy: 'user' })).toThrow(
      CronJobError,
    );
    expect(book.list()).toHaveLength(MAX_CRON_JOBS);
  });

  it('a one-shot delay is due at its time, once, and then gone', async () => {
    const book = await CronBook.open(file, clock);
    const job = book.add({ kind: 'delay', delayMs: 1500, prompt: 'check', createdBy: 'model' });
    expect(book.due()).toEqual([]);
    now += 1500;
    const [fire] = book.due();
    expect(fire?.job.id).toBe(job.id);
    expect(fire?.coalescedCount).toBe(1);
    book.delivered(fire!);
    expect(book.list()).toEqual([]);
  });

  it('coalesces missed fires of a recurring job into one, then moves on', async () => {
    const book = await CronBook.open(file, clock);
    const job = book.add({
      kind: 'cron',
      cron: '* * * * *',
      recurring: true,
      prompt: 'tick',
      createdBy: 'model',
    });
    now += 5 * MIN + 30_000; // 10:05:50: the fires of 10:01 … 10:05, each past its jitter (≤ 6 s here)
    const [fire] = book.due();
    expect(fire?.coalescedCount).toBe(5);
    book.delivered(fire!);
    expect(book.due()).toEqual([]);
    const next = book.nextFireAt(book.get(job.id)!);
    expect(next).toBeGreaterThan(now);
    expect(next! - now).toBeLessThanOrEqual(MIN);
  });

  it('jitters a recurring job later by at most 10% of its period, the same way every time', async () => {
    const book = await CronBook.open(null, clock);
    const job = book.add({
      kind: 'cron',
      cron: '*/10 * * * *',
      recurring: true,
      prompt: 'x',
      createdBy: 'model',
    });
    const ideal = new Date(2026, 11, 3, 10, 10).getTime();
    const at = book.nextFireAt(job)!;
    expect(at).toBeGreaterThanOrEqual(ideal);
    expect(at - ideal).toBeLessThan(MIN);
    expect(book.nextFireAt(job)).toBe(at);
  });

  it('a recurring job fires a last time as stale after 7 days, then is deleted', async () => {
    const book = await CronBook.open(file, clock);
    book.add({ kind: 'cron', cron: '7 * * * *', recurring: true, prompt: 'x', createdBy: 'model' });
    now += CRON_STALE_AFTER_MS + MIN;
    const [fire] = book.due();
    expect(fire?.stale).toBe(true);
    expect(fire?.coalescedCount).toBeGreaterThan(100);
    book.delivered(fire!);
    expect(book.list()).toEqual([]);
  });

  it('is restored from its file (append-only; a torn last line is skipped), cursors included', async () => {
    const first = await CronBook.open(file, clock);
    const kept = first.add({
      kind: 'cron',
      cron: '*/5 * * * *',
      recurring: true,
      prompt: 'keep',
      createdBy: 'user',
    });
    const gone = first.add({ kind: 'delay', delayMs: 60_000, prompt: 'gone', createdBy: 'model' });
    first.remove(gone.id);
    now += 10 * MIN;
    first.delivered(first.due()[0]!);
    await first.flush();
    const lines = (await readFile(file, 'utf8')).trim().split('\n');
    expect(lines.map((line) => JSON.parse(line).op)).toEqual(['add', 'add', 'delete', 'fired']);
    await appendFile(file, '{"op":"add","job":{"id":"0000');
    const second = await CronBook.open(file, clock);
    expect(second.list().map((job) => [job.id, job.prompt, job.last_fired_at])).toEqual([
      [kept.id, 'keep', first.get(kept.id)?.last_fired_at],
    ]);
    expect(second.due()).toEqual([]);
    // What comes after the torn line is not glued to it.
    const later = second.add({
      kind: 'delay',
      delayMs: 60_000,
      prompt: 'after the crash',
      createdBy: 'model',
    });
    await second.flush();
    expect((await CronBook.open(file, clock)).get(later.id)?.prompt).toBe('after the crash');
  });

  it('a session closed past several fires gets one coalesced fire when it is opened again', async () => {
    const first = await CronBook.open(file, clock);
    first.add({ kind: 'cron', cron: '*/5 * * * *', recurring: true, prompt: 'poll', createdBy: 'model' });
    await first.flush();
    now += 60 * MIN;
    const second = await CronBook.open(file, clock);
    const fires = second.due();
    expect(fires).toHaveLength(1);
    expect(fires[0]?.coalescedCount).toBeGreaterThanOrEqual(11);
  });

  it('leaves out a job whose expression a hand edit broke', async () => {
    await appendFile(
      file,
      `${JSON.stringify({ op: 'add', job: { id: '0123abcd', cron: '99 * * * *', fire_at: null, prompt: 'x', recurring: true, created_at: now, last_fired_at: null, created_by: 'user' } })}\n`,
    );
    const book = await CronBook.open(file, clock);
    expect(book.list()).toEqual([]);
    expect(book.due()).toEqual([]);
  });
});
