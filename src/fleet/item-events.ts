import type { Redis } from 'ioredis';
import type { RunContext } from '../toolset/run-scope.js';
import { isWireRequest } from '../wire/message.js';
import { QuestionRequest } from '../wire/requests.js';
import { Wire } from '../wire/wire.js';
import { appendItemSessionEvent, wireEntry } from './event-stream.js';
import type { SessionCostMeter } from './session-cost.js';

/**
 * Runs one swarm item with a wire of its own as its run's wire (handed to `run`, not entered as an
 * AsyncLocalStorage: see RunScope), so its subagent's events (as
 * `SubagentEvent`s under the swarm's call, already redacted by the subagent's wire) go to the
 * session's stream, fenced by the turn holding the session and this item's lock: a page following
 * the session shows the item's steps under the swarm, as a local swarm's. A question the subagent
 * asks is dismissed (nobody is there, as for an afk turn); approvals do not come here (the item's
 * approval gate takes them).
 */
export async function withItemEvents<T>(
  redis: Redis,
  item: { sessionId: string; turn: number; parentJobId: string; jobId: string; token: string | undefined },
  run: (itemRun: RunContext) => Promise<T>,
  /** Counts what the item's steps cost into the session's total. */
  cost?: SessionCostMeter,
): Promise<T> {
  const wire = new Wire();
  const { token } = item;
  let sent: Promise<unknown> = Promise.resolve();
  const forwarding = (async () => {
    for await (const message of wire.subscribe({ merge: true })) {
      if (isWireRequest(message)) {
        if (message instanceof QuestionRequest && message.isPending) message.resolve({});
        continue;
      }
      cost?.offer(message);
      if (token === undefined) continue;
      const entry = wireEntry(item.turn, message);
      sent = sent
        .then(() => appendItemSessionEvent(redis, item.sessionId, { ...item, token }, entry))
        .catch(() => undefined);
    }
  })();
  try {
    return await run({ wire, approvalSource: undefined });
  } finally {
    wire.shutdown();
    await forwarding;
    await sent;
    await cost?.settled();
  }
}
