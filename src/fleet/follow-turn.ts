import type { Redis } from 'ioredis';
import { readSessionEvents, type SessionEvent } from './event-stream.js';
import { turnJobState } from './submit-turn.js';
import { turnJobId } from './turn-job.js';

/** The turn's job failed without an end in the stream (a worker gave up on it). */
export class TurnJobFailed extends Error {
  override name = 'TurnJobFailed';
}

/**
 * The events of one turn of a session, from the start of its stream (a replay, then live), up to
 * and including its end; when that end says the session's goal continues, the events of the turn
 * it continues in (the goal's next step), up to the end of the last one. `blocking` is a connection of its own (XREAD BLOCK holds it); `redis` asks
 * the job's state while nothing comes, so a job failed without an end does not wait forever.
 */
export async function* followTurn(
  redis: Redis,
  blocking: Redis,
  sessionId: string,
  turn: number,
  signal: AbortSignal,
): AsyncGenerator<SessionEvent> {
  // A goal's steps are the session's next turns: the turn followed moves on to each.
  let followed = turn;
  const checkJob = async () => {
    const { state, failedReason } = await turnJobState(redis, turnJobId(sessionId, followed));
    if (state === 'failed') throw new TurnJobFailed(`The turn failed: ${failedReason ?? 'no reason given'}`);
  };
  for await (const event of readSessionEvents(blocking, sessionId, '0', signal, checkJob)) {
    if (event.kind !== 'unreadable' && event.turn !== followed) continue;
    if (event.kind === 'end' && event.continues !== undefined) {
      followed = event.continues;
      continue;
    }
    yield event;
    if (event.kind === 'end') return;
  }
}
