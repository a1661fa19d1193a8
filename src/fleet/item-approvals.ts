import type { Redis } from 'ioredis';
import type { ApprovalRequest } from '../wire/requests.js';
import { type AskedApproval, parkedApprovals } from './parked-approvals.js';
import { ParkingGate } from './parked-requests.js';

/**
 * The approvals of one swarm item run by a fleet worker whose turn asks (`--ask`): a ParkingGate
 * over the parked approvals, as a turn's, under the item's job: an answer given while the item was
 * parked is used once, else the request is recorded and `park` stops the item; `fleet approve`
 * answers it and wakes the item's job, whose redo asks again and finds the answer.
 *
 * What is asked is named for the item (`<sender> (swarm item N)`: two items asking the same thing
 * are two approvals, each waking its own job), and a redo's own worktree (a redo works on a branch
 * of its own, `<swarm>r<attempt>`) is named as the first attempt's, so the redo's same request is
 * the same approval.
 */
export class ItemApprovalGate {
  private readonly gate: ParkingGate<AskedApproval, 'approve' | 'reject'>;

  constructor(
    redis: Redis,
    sessionId: string,
    jobId: string,
    private readonly item: { index: number; swarmId: string; branchOwner: string },
    park: () => void,
  ) {
    this.gate = new ParkingGate(parkedApprovals, redis, sessionId, jobId, park);
  }

  /** The first approval that parked the item, or null. */
  get parked(): AskedApproval | null {
    return this.gate.parked;
  }

  /** What the request asks, as this item's approval (stable across the item's redos). */
  asked(request: ApprovalRequest): AskedApproval {
    const { index, swarmId, branchOwner } = this.item;
    const sameAsFirst = (text: string) =>
      branchOwner === swarmId
        ? text
        : text
            .replaceAll(`${branchOwner}-${index}`, `${swarmId}-${index}`)
            .replaceAll(`kimi-ts/${branchOwner}/`, `kimi-ts/${swarmId}/`);
    return {
      sender: `${request.payload.sender} (swarm item ${index})`,
      action: sameAsFirst(request.payload.action),
      description: sameAsFirst(request.payload.description),
    };
  }

  handle(request: ApprovalRequest): Promise<void> {
    return this.gate.handle(this.asked(request), (answer) => request.resolve(answer));
  }

  /** Whether what parked the item was answered already (before its job was parked). */
  isAnswered(): Promise<boolean> {
    return this.gate.isAnswered();
  }
}
