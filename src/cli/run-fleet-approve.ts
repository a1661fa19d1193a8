import { sanitizeForTerminal } from '../util/sanitize-terminal.js';
import { badSessionArgument, connectFleet } from './fleet-connection.js';

/**
 * `kimi-ts fleet approve SESSION --queue URL --approve|--reject`: answers the approvals a parked turn of the
 * session waits for, and wakes the turn up (its job is promoted; any worker takes it).
 */
export async function runFleetApprove(
  sessionId: string,
  flags: { queue: string; approve?: boolean | undefined; reject?: boolean | undefined },
): Promise<number> {
  if (Boolean(flags.approve) === Boolean(flags.reject)) {
    process.stderr.write('kimi-ts fleet approve: say --approve or --reject.\n');
    return 2;
  }
  const bad = badSessionArgument(sessionId, 'fleet approve');
  if (bad !== null) return bad;
  const connected = await connectFleet(flags.queue, 'fleet', 1);
  if ('code' in connected) return connected.code;
  const { redis } = connected;
  try {
    const { answerParkedTurn } = await import('../fleet/answer-parked.js');
    const answer = flags.approve ? 'approve' : 'reject';
    const answered = await answerParkedTurn(redis, sessionId, answer);
    if (answered.length === 0) {
      process.stderr.write(`No approval is waiting in session ${sessionId}.\n`);
      return 1;
    }
    for (const entry of answered)
      process.stdout.write(
        `${answer === 'approve' ? 'Approved' : 'Rejected'}: ${sanitizeForTerminal(entry.action)}\n`,
      );
    return 0;
  } finally {
    redis.disconnect();
  }
}
