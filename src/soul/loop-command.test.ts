import { describe, expect, it } from 'vitest';
import { CronBook } from '../tools/cron/cron-book.js';
import type { WireMessage } from '../wire/message.js';
import { Wire } from '../wire/wire.js';
import { loopCommand, parseLoopInterval } from './loop-command.js';
import type { Soul } from './soul.js';

const at = new Date(2026, 11, 3, 10, 17, 0);

describe('parseLoopInterval', () => {
  it.each([
    ['5m', '*/5 * * * *', null],
    ['1m', '* * * * *', null],
    ['7m', '*/6 * * * *', '7m → 6m'],
    ['1h', '17 * * * *', null],
    ['90m', '17 */2 * * *', '90m → 2h'],
    ['6h', '17 */6 * * *', null],
    ['1d', '17 10 * * *', null],
  ])('%s → %s', (text, cron, rounded) => {
    const schedule = parseLoopInterval(text, at);
    expect(schedule).toMatchObject({ cron, rounded });
  });

  it.each([
    ['0s', 'longer than zero'],
    ['0m', 'longer than zero'],
    ['-1m', 'not an interval'],
    ['30s', 'shortest interval is 1m'],
    ['5 minutes', 'not an interval'],
    ['1.5h', 'not an interval'],
  ])('%s is a clear error', (text, problem) => {
    expect(parseLoopInterval(text, at)).toContain(problem);
  });
});

describe('/loop', () => {
  async function loop(book: CronBook, args: string): Promise<string> {
    const wire = new Wire();
    const said = (async () => {
      const out: string[] = [];
      for await (const message of wire.subscribe({ merge: false }))
        if (message.type === 'ContentPart' && message.payload.type === 'text') out.push(message.payload.text);
      return out.join('');
    })();
    const command = loopCommand(book);
    // The command answers on its soul's run (Soul.send): here, the test's wire.
    const soul = { send: (message: WireMessage) => wire.send(message) } as unknown as Soul;
    if ('run' in command) await command.run({ soul, args, signal: new AbortController().signal });
    wire.shutdown();
    return said;
  }

  it('schedules, lists (terminal-safe) and stops', async () => {
    const book = await CronBook.open(null);
    const scheduled = await loop(book, '5m check CI \u001b[2J\u200b\u200b\u202eevil');
    const [job] = book.list();
    expect(job).toMatchObject({ cron: '*/5 * * * *', recurring: true, created_by: 'user' });
    expect(scheduled).toContain(`Scheduled ${job?.id}: every 5m`);
    const listed = await loop(book, '');
    expect(listed).toContain(job?.id);
    for (const hidden of ['\u001b', '\u200b', '\u202e']) expect(listed).not.toContain(hidden);
    expect(listed).toContain('␛[2J');
    expect(listed).toContain('⟨U+200B ×2⟩');
    expect(await loop(book, `stop ${job?.id}`)).toBe(`Stopped ${job?.id}.`);
    expect(book.list()).toEqual([]);
    expect(await loop(book, 'stop 12345678')).toContain('No scheduled prompt has the id');
  });

  it('refuses a bad interval, a missing prompt, an 8 KiB+ prompt and a 51st job', async () => {
    const book = await CronBook.open(null);
    expect(await loop(book, '0s hello')).toContain('longer than zero');
    expect(await loop(book, '-1m hello')).toContain('not an interval');
    expect(await loop(book, '5m')).toContain('A prompt is needed');
    expect(await loop(book, `5m ${'x'.repeat(8193)}`)).toContain('at most 8192 bytes');
    for (let i = 0; i < 50; i++)
      book.add({ kind: 'delay', delayMs: 60_000, prompt: `p${i}`, createdBy: 'model' });
    expect(await loop(book, '5m one more')).toContain('already has 50');
    expect(book.list()).toHaveLength(50);
  });
});
