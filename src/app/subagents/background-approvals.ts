import type { ApprovalRuntime } from '../../toolset/approval/approval-runtime.js';
import { toWireRequest } from '../../toolset/approval/approval-wire-bridge.js';
import type { ApprovalRequest } from '../../wire/requests.js';
import type { Wire } from '../../wire/wire.js';
import type { RootWireTracker } from './root-wire-tracker.js';

export interface BackgroundApprovalWatch {
  runtime: ApprovalRuntime;
  /** The background task the subagent runs as (its approval source id). */
  taskId: string;
  /** The subagent's own wire once its run has opened it. */
  subagentWire: () => Wire | null;
  tracker: RootWireTracker;
  setAwaitingApproval(waiting: boolean): Promise<void>;
}

/**
 * Follows the approval requests of one background subagent: the task is marked as awaiting
 * approval while any is pending, and each request reaches a front end. During a root turn, the
 * turn's approval bridge publishes the request on the subagent's wire (and the forwarder passes it
 * on); between turns nobody does, so this publishes it itself, held until the next root turn.
 * Returns the function that stops watching.
 */
export function watchBackgroundApprovals(watch: BackgroundApprovalWatch): () => void {
  const { runtime, taskId, tracker } = watch;
  const pending = new Set<string>();
  const published = new Map<string, ApprovalRequest>();
  const setWaiting = (waiting: boolean): void => {
    watch.setAwaitingApproval(waiting).catch(() => undefined);
  };

  return runtime.subscribe((event) => {
    const { record } = event;
    if (record.source.kind !== 'background_agent' || record.source.id !== taskId) return;
    if (event.type === 'request_created') {
      pending.add(record.id);
      if (pending.size === 1) setWaiting(true);
      // The turn's bridge, if any, has sent the request on the subagent's wire synchronously.
      queueMicrotask(() => {
        const current = runtime.get(record.id);
        if (current?.status !== 'pending') return;
        if (watch.subagentWire()?.pendingRequests.some((request) => request.id === record.id)) return;
        const request = toWireRequest(current);
        published.set(record.id, request);
        void request.wait().then((answer) => {
          if (request.state.status === 'cancelled') runtime.cancel(record.id, request.state.reason);
          else runtime.resolve(record.id, { response: answer.response, feedback: answer.feedback });
        });
        tracker.deliver(request);
      });
      return;
    }
    pending.delete(record.id);
    published.get(record.id)?.resolve(event.record.response, event.record.feedback);
    published.delete(record.id);
    if (pending.size === 0) setWaiting(false);
  });
}
