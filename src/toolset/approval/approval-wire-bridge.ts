import { ApprovalRequest, type WireMessage, wireEvent, wireSend } from '../../wire/index.js';
import type { ApprovalRecord, ApprovalRuntime } from './approval-runtime.js';

export interface ApprovalWireBridgeOptions {
  /** Where every message goes (a fleet worker parks an item's requests); default: see `fallback`. */
  send?: ((message: WireMessage) => void) | undefined;
  /**
   * Where a request goes when it does not name the wire of the run that asked (it does when asked
   * from a tool call of a soul run: a subagent's goes on its own run's wire, which passes it on),
   * and its answer; default `wireSend` (the current wire of the code that created the request).
   */
  fallback?: ((message: WireMessage) => void) | undefined;
}

/**
 * Connects an ApprovalRuntime to front ends over the Wire: every new request goes out as an
 * `ApprovalRequest`, its answer resolves the record, and every settlement (answered there, released
 * by an approve-for-session, timed out, cancelled with its turn) goes out as `ApprovalResponse` so
 * every front end can close its prompt. A request that cannot be sent is cancelled rather than left
 * waiting for an answer nobody can give. Returns the function that disconnects the bridge.
 */
export function bridgeApprovalsToWire(
  runtime: ApprovalRuntime,
  options: ApprovalWireBridgeOptions = {},
): () => void {
  const fallback = options.send ?? options.fallback ?? wireSend;
  const open = new Map<string, { request: ApprovalRequest; send: (message: WireMessage) => void }>();
  return runtime.subscribe((event) => {
    if (event.type === 'request_created') {
      const request = toWireRequest(event.record);
      const { wire } = event;
      const send = wire && !options.send ? (message: WireMessage) => wire.send(message) : fallback;
      try {
        send(request);
      } catch {
        runtime.cancel(event.record.id, 'No front end could be asked for approval.');
        return;
      }
      open.set(request.id, { request, send });
      void request.wait().then((answer) => {
        if (request.state.status === 'cancelled') runtime.cancel(request.id, request.state.reason);
        else {
          runtime.resolve(request.id, {
            response: answer.response,
            feedback: answer.feedback,
            // No scope is Kimi CLI's meaning of approve-for-session: the whole action (Moonshot's
            // SDK and the other wire clients rely on it); kimi-ts's own answers say which scope.
            ...(answer.scope
              ? { scope: answer.scope }
              : answer.response === 'approve_for_session'
                ? { scope: 'action' as const }
                : {}),
            ...(answer.persist ? { persist: true } : {}),
            ...(answer.prefix ? { prefix: answer.prefix } : {}),
            ...(answer.save_rule ? { saveRule: answer.save_rule } : {}),
            ...(answer.for_swarm ? { forSwarm: true } : {}),
          });
        }
      });
      return;
    }
    const { record } = event;
    const opened = open.get(record.id);
    open.delete(record.id);
    opened?.request.resolve(record.response, record.feedback);
    const send = opened?.send ?? fallback;
    try {
      send(
        wireEvent('ApprovalResponse', {
          request_id: record.id,
          response: record.response,
          feedback: record.feedback,
        }),
      );
    } catch {
      // The wire may be gone already (turn over); the record is settled either way.
    }
  });
}

/** The wire request that asks a front end about an approval record. */
export function toWireRequest(record: ApprovalRecord): ApprovalRequest {
  return new ApprovalRequest({
    id: record.id,
    tool_call_id: record.tool_call_id,
    sender: record.sender,
    action: record.action,
    description: record.description,
    display: [...record.display],
    source_kind: record.source.kind,
    source_id: record.source.id,
    agent_id: record.source.agent_id ?? null,
    subagent_type: record.source.subagent_type ?? null,
    source_description: record.source.description ?? null,
    parent_tool_call_id: record.source.parent_tool_call_id ?? null,
    swarm_id: record.source.swarm_id ?? null,
  });
}
