import { badSessionArgument, connectFleet } from './fleet-connection.js';

/** `kimi-ts fleet cancel SESSION --queue URL`: stops the session's running turn, or its next one. */
export async function runFleetCancel(sessionId: string, flags: { queue: string }): Promise<number> {
  const bad = badSessionArgument(sessionId, 'fleet cancel');
  if (bad !== null) return bad;
  const connected = await connectFleet(flags.queue, 'fleet', 1);
  if ('code' in connected) return connected.code;
  const { redis } = connected;
  try {
    const { requestCancel } = await import('../fleet/turn-cancels.js');
    await requestCancel(redis, sessionId);
    process.stdout.write(`Cancel sent for session ${sessionId}.\n`);
    return 0;
  } finally {
    redis.disconnect();
  }
}
