import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CronBook } from './cron-book.js';
import { MAX_CRON_JOBS, MAX_CRON_PROMPT_BYTES } from './cron-job.js';

/**
 * A `cron.jsonl` is a session file like any other: it may have been planted or edited by someone
 * else (a shared home, a sandbox that was off). Loading it must hold Kimi Code's limits, bound what
 * it reads, and never let a bad record break the session.
 */
let dir: string;
let file: string;
const now = new Date(2026, 11, 3, 10, 0, 20).getTime();

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kimi-ts-cron-hostile-'));
  file = join(dir, 'cron.jsonl');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function addRecord(id: string, prompt: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    op: 'add',
    job: {
      id,
      cron: '*/5 * * * *',
      fire_at: null,
      prompt,
      recurring: true,
      created_at: now - 60_000,
      last_fired_at: null,
      created_by: 'user',
      ...extra,
    },
  });
}

describe('CronBook opening a planted cron.jsonl', () => {
  it('holds the 50-job limit on load, not only on create', async () => {
    const lines = Array.from({ length: 200 }, (_, i) =>
      addRecord(i.toString(16).padStart(8, '0'), `job ${i}`),
    );
    await writeFile(file, `${lines.join('\n')}\n`);
    const book = await CronBook.open(file, () => now);
    expect(book.list().length).toBe(MAX_CRON_JOBS);
    // The first 50 are kept: a later planted record cannot push a real one out.
    expect(book.get('00000000')?.prompt).toBe('job 0');
  });

  it('leaves out a prompt over 8 KiB', async () => {
    const big = 'x'.repeat(MAX_CRON_PROMPT_BYTES + 1);
    await writeFile(file, `${addRecord('0000000a', big)}\n${addRecord('0000000b', 'fine')}\n`);
    const book = await CronBook.open(file, () => now);
    expect(book.list().map((job) => job.id)).toEqual(['0000000b']);
  });

  it('skips a huge line without reading it whole', async () => {
    const huge = addRecord('0000000c', 'y'.repeat(20 * 1024 * 1024));
    await writeFile(file, `${huge}\n${addRecord('0000000d', 'after')}\n`);
    const book = await CronBook.open(file, () => now);
    expect(book.list().map((job) => job.id)).toEqual(['0000000d']);
  });

  it('a record with times outside any date cannot break due() or the next fire', async () => {
    const lines = [
      addRecord('00000001', 'far', { created_at: 9e15 }),
      addRecord('00000002', 'past', { created_at: -9e15 }),
      addRecord('00000003', 'oneshot', { cron: null, fire_at: 9e15, recurring: false }),
      addRecord('00000004', 'fired', { last_fired_at: 1e300 }),
      addRecord('00000005', 'good'),
    ];
    await writeFile(file, `${lines.join('\n')}\n`);
    const book = await CronBook.open(file, () => now);
    expect(() => book.due(now + 10 * 60_000)).not.toThrow();
    expect(() => book.earliestFireAt()).not.toThrow();
    expect(book.list().map((job) => job.id)).toEqual(['00000005']);
  });
});
