import type { Redis } from 'ioredis';
import type { ApprovalRequest } from '../wire/requests.js';
import type { AskedApproval } from './approval-gate.js';
import { isAnswered, recordPending, takeAnswer } from './parked-approvals.js';

/**
 * The approvals of one swarm item run by a fleet worker whose turn asks (`--ask`): as a turn's (see
 * ApprovalGate), an answer given while the item was parked is used once, else the request is
 * recorded under the item's job and `park` stops the item; `fleet approve` answers it and wakes the
 * item's job, whose redo asks again and finds the answer.
 *
 * What is asked is named for the item (`<sender> (swarm item N)`: two items asking the same thing
 * are two approvals, each waking its own job), and a redo's own worktree (a redo works on a branch
 * of its own, `<swarm>r<attempt>`) is named as the first attempt's, so the redo's same request is
 * the same approval.
 */
export class ItemApprovalGate {
  parked: AskedApproval | null = null;

  constructor(
    private readonly redis: Redis,
    private readonly sessionId: string,
    private readonly jobId: string,
    private readonly item: { index: number; swarmId: string; branchOwner: string },
    private readonly park: () => void,
  ) {}

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

  async handle(request: ApprovalRequest): Promise<void> {
    const asked = this.asked(request);
    const answer = await takeAnswer(this.redis, this.sessionId, asked);
    if (answer !== null) {
      request.resolve(answer);
      return;
    }
    if (this.parked !== null) return;
    this.parked = asked;
    await recordPending(this.redis, this.sessionId, this.jobId, asked);
    this.park();
  }

  /** Whether what parked the item was answered already (before its job was parked). */
  async isAnswered(): Promise<boolean> {
    return this.parked !== null && isAnswered(this.redis, this.sessionId, this.parked);
  }
}
