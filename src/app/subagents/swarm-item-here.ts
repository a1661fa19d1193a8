import type { ApprovalRuntime } from '../../toolset/approval/approval-runtime.js';
import { bridgeApprovalsToWire } from '../../toolset/approval/approval-wire-bridge.js';
import { ApprovalRequest } from '../../wire/requests.js';
import type { SwarmItemRan, SwarmItemRun, SwarmSlot } from './swarm-dispatch.js';

/** Why an approval a fleet swarm item needs is refused when nobody can be asked. */
export const SWARM_ITEM_NOBODY_TO_ASK =
  'Nobody can answer an approval of a swarm item run by a fleet worker: it is refused. Work without it, or say in the report what needs approving.';

/**
 * Runs one item of a swarm another worker's turn of the session dispatched (a fleet child job), in
 * this session. No front end is there: an approval the item's policy asks for goes to the run's
 * `onApprovalRequest` (a fleet worker parks the item), or without it is refused with the reason,
 * never left waiting.
 */
export async function runSwarmItemHere(
  slot: SwarmSlot | undefined,
  runtime: ApprovalRuntime,
  run: SwarmItemRun,
): Promise<SwarmItemRan> {
  const runItem = slot?.runItem;
  if (!runItem) throw new Error('This session has no subagents to run a swarm item with.');
  const { onApprovalRequest } = run;
  const disconnect = onApprovalRequest
    ? bridgeApprovalsToWire(runtime, {
        send: (message) => {
          if (message instanceof ApprovalRequest) onApprovalRequest(message);
        },
      })
    : runtime.subscribe((event) => {
        if (event.type === 'request_created') runtime.cancel(event.record.id, SWARM_ITEM_NOBODY_TO_ASK);
      });
  try {
    return await runItem(run);
  } finally {
    disconnect();
  }
}
