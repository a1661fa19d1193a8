import type { Redis } from 'ioredis';
import type { QueueAddress } from '../fleet/queue-address.js';
import { isFullSessionUuid } from '../session/session-id-match.js';
import { USAGE_EXIT_CODE, usageErrorText } from './usage-text.js';

/** A fleet command's session argument: a full session UUID (the fleet has no folder to match a prefix in). */
export function badSessionArgument(sessionId: string, command: string): number | null {
  if (isFullSessionUuid(sessionId)) return null;
  process.stderr.write(usageErrorText(`${command} takes a full session UUID (submit prints it).`));
  return USAGE_EXIT_CODE;
}

/**
 * `--queue URL` of a fleet command, connected: or the exit code after saying why not (a bad URL is
 * a usage error; an unreachable Redis is one line naming host:port, never the URL's credentials).
 */
export async function connectFleet(
  queue: string,
  command: string,
  unreachableCode: number,
): Promise<{ redis: Redis; address: QueueAddress } | { code: number }> {
  const [{ parseQueueUrl, QueueUrlError }, { connectRedis, RedisUnreachable }] = await Promise.all([
    import('../fleet/queue-address.js'),
    import('../fleet/redis-connection.js'),
  ]);
  let address: QueueAddress;
  try {
    address = parseQueueUrl(queue);
  } catch (error) {
    if (!(error instanceof QueueUrlError)) throw error;
    process.stderr.write(usageErrorText(error.message));
    return { code: USAGE_EXIT_CODE };
  }
  try {
    return { redis: await connectRedis(address, { graceMs: 5000 }), address };
  } catch (error) {
    if (!(error instanceof RedisUnreachable)) throw error;
    process.stderr.write(`kimi-ts ${command}: ${error.message}\n`);
    return { code: unreachableCode };
  }
}
