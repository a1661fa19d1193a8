import { Approval } from '../approval/approval.js';
import type { PendingApprovalRecord } from '../approval/approval-runtime.js';

/** An Approval whose every request is recorded and answered `approve` by "a person" at once. */
export function approvingApproval(): { approval: Approval; requests: PendingApprovalRecord[] } {
  const approval = new Approval();
  const requests: PendingApprovalRecord[] = [];
  approval.runtime.subscribe((event) => {
    if (event.type !== 'request_created') return;
    requests.push(event.record);
    queueMicrotask(() => approval.runtime.resolve(event.record.id, { response: 'approve' }));
  });
  return { approval, requests };
}
