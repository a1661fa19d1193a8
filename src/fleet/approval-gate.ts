import type { Redis } from 'ioredis';
import type { ApprovalRequest } from '../wire/requests.js';
import { recordPending, takeAnswer } from './parked-approvals.js';

export type AskedApproval = { sender: string; action: string; description: string };

/**
 * What a fleet turn does with an approval nobody at the worker can give: the answer given while the
 * turn was parked for it (used once), or park: the request is recorded, and `park` stops the turn
 * before the step that asked commits. The first request that parks is kept in `parked`.
 */
export class ApprovalGate {
  parked: AskedApproval | null = null;

  constructor(
    private readonly redis: Redis,
    private readonly sessionId: string,
    private readonly jobId: string,
    private readonly park: () => void,
  ) {}

  async handle(request: ApprovalRequest): Promise<void> {
    const answer = await takeAnswer(this.redis, this.sessionId, request.payload);
    if (answer !== null) {
      request.resolve(answer);
      return;
    }
    if (this.parked !== null) return;
    this.parked = request.payload;
    await recordPending(this.redis, this.sessionId, this.jobId, request.payload);
    this.park();
  }
}
