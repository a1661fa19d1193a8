import { join } from 'node:path';
import { CronBook } from '../tools/cron/cron-book.js';
import { type CronClock, SYSTEM_CRON_CLOCK } from '../tools/cron/cron-scheduler.js';
import { cronTools } from '../tools/cron/cron-tools.js';
import type { KimiToolset } from '../toolset/kimi-toolset.js';

/** The file of a session's scheduled prompts; a fork copies only the conversation, so it has none. */
export const CRON_FILE = 'cron.jsonl';

/** Reads the session's scheduled prompts and gives the root agent CronCreate, CronList, CronDelete. */
export async function openSessionCron(
  sessionDir: string,
  toolset: KimiToolset,
  clock: CronClock = SYSTEM_CRON_CLOCK,
): Promise<CronBook> {
  const book = await CronBook.open(join(sessionDir, CRON_FILE), () => clock.now());
  for (const tool of cronTools(book)) toolset.add(tool);
  return book;
}
