import type { Redis } from 'ioredis';
import { openTurnQueue } from '../../../../fleet/fleet-queue.js';
import { submitTurn } from '../../../../fleet/submit-turn.js';
import { turnJobId, turnJobSchema } from '../../../../fleet/turn-job.js';
import { recordTurnNumber, takeNextTurnNumber } from '../../../../fleet/turn-numbers.js';

/** The furthest turn number looked for past the latest one the page saw (jobs not yet streamed). */
const LOOK_AHEAD = 100;

/**
 * A prompt from the page as the session's next turn job, in the work dir of the session's turns (a
 * new session: the node's `-w`). Its number is taken from the session's counter, as a cron fire's
 * and a goal step's are, so a prompt racing them (or another page) gets a turn of its own, never
 * one of theirs. Approvals wait for the page (`ask`): the page holds no key and grants no yolo.
 * Refused while the session's latest turn (the page's, or a later one already queued that no worker
 * took yet) has not ended.
 */
export async function submitPageTurn(
  redis: Redis,
  request: { sessionId: string; afterTurn: number; prompt: string; defaultWorkDir: string },
): Promise<{ turn: number } | { refusal: string }> {
  const queue = await openTurnQueue(redis);
  let latest: { turn: number; workDir: string; state: string } | null = null;
  try {
    for (let turn = Math.max(1, request.afterTurn); turn <= request.afterTurn + LOOK_AHEAD; turn++) {
      const job = await queue.getJob(turnJobId(request.sessionId, turn));
      if (!job) {
        if (turn > request.afterTurn) break;
        continue;
      }
      const data = turnJobSchema.safeParse(job.data);
      if (!data.success) break;
      latest = { turn, workDir: data.data.workDir, state: await job.getState() };
    }
  } finally {
    await queue.close();
  }
  if (latest !== null && latest.state !== 'completed' && latest.state !== 'failed')
    return { refusal: 'A turn of this session is still running or waiting; wait for its end.' };
  // A counter behind the jobs (turns queued before there was one) is raised first; then one number
  // is taken, in one INCR: no other producer can get it.
  await recordTurnNumber(redis, request.sessionId, latest?.turn ?? request.afterTurn);
  const turn = await takeNextTurnNumber(redis, request.sessionId);
  await submitTurn(redis, {
    sessionId: request.sessionId,
    turn,
    workDir: latest?.workDir ?? request.defaultWorkDir,
    prompt: request.prompt,
    yolo: false,
    afk: false,
    ask: true,
  });
  return { turn };
}
