import type { CronJob } from './cron-job.js';

/** Local time with its numeric offset (`2026-12-03T17:05:00.000+01:00`), as Kimi Code shows fire times. */
export function formatLocalIso(ms: number): string {
  const date = new Date(ms);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const offsetMin = -date.getTimezoneOffset();
  const sign = offsetMin >= 0 ? '+' : '-';
  const abs = Math.abs(offsetMin);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(
    date.getMinutes(),
  )}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** What a job's schedule is, in words a person reads. */
export function describeSchedule(job: CronJob): string {
  if (job.cron === null) return `once at ${formatLocalIso(job.fire_at ?? 0)}`;
  return job.recurring ? `cron "${job.cron}"` : `once, at the next match of cron "${job.cron}"`;
}

const PREVIEW_BYTES = 200;

/** The prompt's first 200 bytes of UTF-8, cut on a character boundary. */
export function promptPreview(prompt: string): string {
  const bytes = Buffer.from(prompt, 'utf8');
  if (bytes.byteLength <= PREVIEW_BYTES) return prompt;
  let end = PREVIEW_BYTES;
  while (end > 0 && ((bytes[end] ?? 0) & 0b1100_0000) === 0b1000_0000) end--;
  return `${bytes.subarray(0, end).toString('utf8')}…(truncated)`;
}

/** A fired prompt as the model reads it: Kimi Code's `<cron-fire>` envelope around the prompt. */
export function cronFireEnvelope(job: CronJob, fire: { coalescedCount: number; stale: boolean }): string {
  const attr = (value: string) =>
    value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
  // The prompt cannot end the envelope early and pose as the runtime speaking after it, nor open a
  // second one: no tag of the envelope's names starts inside it, in any spelling (`</prompt >`,
  // `</ PROMPT>`, `<cron-fire …>`); its `<` is written as `&lt;`.
  const body = job.prompt.replace(/<(?=\s*\/?\s*(?:prompt|cron-fire)\b)/gi, '&lt;');
  return [
    `<cron-fire jobId="${attr(job.id)}" cron="${attr(job.cron ?? 'once')}" recurring="${job.recurring}" coalescedCount="${fire.coalescedCount}" stale="${fire.stale}">`,
    '<prompt>',
    body,
    '</prompt>',
    '</cron-fire>',
  ].join('\n');
}
