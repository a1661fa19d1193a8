import type { UILoop } from '../../soul/run-soul.js';
import { wireEvent } from '../../wire/events.js';
import { isWireRequest, type WireMessage } from '../../wire/message.js';
import type { WireRequest } from '../../wire/requests.js';

export interface ForwardTarget {
  parentToolCallId: string | null;
  agentId: string;
  subagentType: string;
  /** Every event of the subagent, wrapped in a SubagentEvent; null to forward requests only. */
  sendEvent: ((message: WireMessage) => void) | null;
  /** Requests (approvals, questions) as they are, so the user's front end answers the very object the subagent waits on. */
  sendRequest: (request: WireRequest) => void;
}

/**
 * The front end of a subagent's own wire: it hands what the subagent sends to the parent. Events
 * travel wrapped in `SubagentEvent`; requests and approval responses travel as they are, as they
 * concern the user directly (Kimi CLI sends them through its root hub).
 */
export function forwardToParent(target: ForwardTarget): UILoop {
  return async (wire) => {
    for await (const message of wire.subscribe({ merge: true })) {
      if (isWireRequest(message)) {
        if (message.isPending) target.sendRequest(message);
        continue;
      }
      if (!target.sendEvent) continue;
      if (message.type === 'ApprovalResponse') {
        target.sendEvent(message);
        continue;
      }
      target.sendEvent(
        wireEvent('SubagentEvent', {
          parent_tool_call_id: target.parentToolCallId,
          agent_id: target.agentId,
          subagent_type: target.subagentType,
          event: message,
        }),
      );
    }
  };
}
