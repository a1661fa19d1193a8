import { badSessionArgument, connectFleet } from './fleet-connection.js';

export interface FleetEventsFlags {
  queue: string;
  from?: string | undefined;
  follow?: boolean | undefined;
}

/** A Redis Stream id, `<ms>-<seq>`; or 0 for the start. */
const STREAM_ID = /^(0|\d+-\d+)$/;

/**
 * `kimi-ts fleet events SESSION --queue URL [--from ID] [--follow]`: the session's events as JSON
 * lines, each with its stream id, from after `--from` (a client that saw up to ID replays the rest);
 * `--follow` keeps printing new ones until interrupted.
 */
export async function runFleetEvents(sessionId: string, flags: FleetEventsFlags): Promise<number> {
  const from = flags.from ?? '0';
  if (!STREAM_ID.test(from)) {
    process.stderr.write('kimi-ts fleet: --from takes a stream id (like 1712345678901-0) or 0.\n');
    return 2;
  }
  const bad = badSessionArgument(sessionId, 'fleet events');
  if (bad !== null) return bad;
  const connected = await connectFleet(flags.queue, 'fleet', 1);
  if ('code' in connected) return connected.code;
  const { redis } = connected;
  const { rangeSessionEvents, readSessionEvents } = await import('../fleet/event-stream.js');
  const { wireMessageToJSON } = await import('../wire/message-json.js');
  const print = (event: Awaited<ReturnType<typeof rangeSessionEvents>>[number]) =>
    process.stdout.write(
      `${JSON.stringify(event.kind === 'wire' ? { ...event, message: wireMessageToJSON(event.message) } : event)}\n`,
    );
  try {
    if (!flags.follow) {
      for (const event of await rangeSessionEvents(redis, sessionId, from)) print(event);
      return 0;
    }
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    try {
      for await (const event of readSessionEvents(redis, sessionId, from, stop.signal)) print(event);
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
    return 0;
  } finally {
    redis.disconnect();
  }
}
