import { join } from 'node:path';
import { CronBook } from '../tools/cron/cron-book.js';
import { type CronClock, SYSTEM_CRON_CLOCK } from '../tools/cron/cron-scheduler.js';

/** The file of a session's scheduled prompts; a fork copies only the conversation, so it has none. */
export const CRON_FILE = 'cron.jsonl';

/**
 * Reads the session's scheduled prompts. The tools over them (CronCreate, CronList, CronDelete) load
 * as any other, where the agent's file lists them: an agent file of Kimi CLI's gets none.
 */
export async function openSessionCron(
  sessionDir: string,
  clock: CronClock = SYSTEM_CRON_CLOCK,
): Promise<CronBook> {
  return CronBook.open(join(sessionDir, CRON_FILE), () => clock.now());
}
