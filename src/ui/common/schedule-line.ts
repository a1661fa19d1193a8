import type { WireEventOf } from '../../wire/events.js';

type SchedulePayload = WireEventOf<'ScheduleFired'>['payload'];

/**
 * The line a front end shows before a turn a schedule started: `⏰ scheduled prompt 0a1b2c3d (cron
 * "*\/5 * * * *", 3 missed fires in one, made by the model)`. The job id and cron come from a file the model may have
 * written: the caller sanitises the line for its terminal or page.
 */
export function scheduleLineText(payload: SchedulePayload): string {
  const details = [
    payload.cron === null ? 'once' : `cron "${payload.cron}"${payload.recurring ? '' : ', once'}`,
    ...(payload.coalesced_count > 1 ? [`${payload.coalesced_count} missed fires in one`] : []),
    ...(payload.stale ? ['last fire: 7 days old, now deleted'] : []),
    // The person did not type this prompt: it runs with whatever approvals are in force now.
    ...(payload.created_by === 'model' ? ['made by the model'] : []),
  ];
  return `⏰ scheduled prompt ${payload.job_id} (${details.join(', ')})`;
}
