import { toolError } from '../../../kosong/tool.js';
import { assertNever } from '../../../util/assert-never.js';
import { describeIssues } from '../../../wire/json.js';
import { approvalAnswerSchema } from '../../../wire/request-payloads.js';
import type { WireRequest } from '../../../wire/requests.js';
import type { InboundResponse } from './jsonrpc.js';
import { hookAnswerSchema, questionAnswerSchema, toolAnswerSchema } from './schemas.js';

/** Why outstanding requests are being closed without an answer from the client. */
export type CloseReason = 'turn_ended' | 'wire_closed';

const CLOSE_TEXT: Record<CloseReason, { message: string; brief: string }> = {
  turn_ended: { message: 'Agent turn ended before tool result was received.', brief: 'Turn ended' },
  wire_closed: {
    message: 'Wire connection closed before tool result was received.',
    brief: 'Wire closed',
  },
};

/**
 * The requests we sent to the client that still wait for its answer, by JSON-RPC id (the request's
 * own id). An answer is validated against what the request type expects; an error answer or one that
 * does not fit resolves the request with that type's refusal (reject, tool error, no answers, allow),
 * so a misbehaving client can never leave the agent waiting or crash the server.
 */
export class PendingRequests {
  private readonly byId = new Map<string, WireRequest>();

  /** `onRefused` hears why an answer that did not fit was taken as a refusal. */
  constructor(private readonly onRefused: (why: string) => void = () => {}) {}

  get size(): number {
    return this.byId.size;
  }

  add(request: WireRequest): void {
    if (this.byId.size >= 256) this.prune();
    this.byId.set(request.id, request);
  }

  /** Forgets a request without settling it (e.g. a hook question that timed out on our side). */
  remove(request: WireRequest): void {
    if (this.byId.get(request.id) === request) this.byId.delete(request.id);
  }

  /** Settles the request the response answers; returns false when no request has that id. */
  answer(response: InboundResponse): boolean {
    const request = this.byId.get(response.id);
    if (request === undefined) return false;
    this.byId.delete(response.id);
    settleWithResponse(request, response, this.onRefused);
    return true;
  }

  /**
   * Settles every outstanding request as `reason` says: approvals are rejected (after a turn, only
   * those of the foreground turn: a background agent's approval may still be answered later),
   * external tools get a tool error, questions get no answers, hooks allow.
   */
  close(reason: CloseReason): void {
    for (const [id, request] of this.byId) {
      if (!request.isPending) {
        this.byId.delete(id);
        continue;
      }
      if (
        reason === 'turn_ended' &&
        request.type === 'ApprovalRequest' &&
        request.payload.source_kind === 'background_agent'
      )
        continue;
      this.byId.delete(id);
      if (request.type === 'ToolCallRequest') {
        const text = CLOSE_TEXT[reason];
        request.resolve(toolError(text.message, text.brief));
      } else {
        request.cancel(CLOSE_TEXT[reason].message);
      }
    }
  }

  /** Drops requests that were settled elsewhere (cancelled with their turn, answered by another UI). */
  private prune(): void {
    for (const [id, request] of this.byId) if (!request.isPending) this.byId.delete(id);
  }
}

function settleWithResponse(
  request: WireRequest,
  response: InboundResponse,
  onRefused: (why: string) => void,
): void {
  switch (request.type) {
    case 'ApprovalRequest': {
      const parsed = response.ok ? approvalAnswerSchema.safeParse(response.result) : null;
      const named = parsed?.success ? parsed.data.request_id : null;
      if (named && named !== request.id) {
        // The answer was meant for another entry of the queue: it must not approve this one.
        onRefused(`approval request ${request.id} is taken as rejected: the answer names request ${named}`);
        request.resolve('reject', '');
        return;
      }
      if (parsed?.success) {
        request.resolve(parsed.data.response, parsed.data.feedback ?? '', {
          scope: parsed.data.scope ?? undefined,
          persist: parsed.data.persist ?? undefined,
          prefix: parsed.data.prefix ?? undefined,
          save_rule: parsed.data.save_rule ?? undefined,
          for_swarm: parsed.data.for_swarm ?? undefined,
        });
        return;
      }
      const why = parsed
        ? `the answer is not one of approve, approve_for_session, reject (${describeIssues(parsed.error)})`
        : `the client answered with an error (${response.ok ? '' : response.error.message})`;
      onRefused(`approval request ${request.id} is taken as rejected: ${why}`);
      request.resolve('reject', '');
      return;
    }
    case 'ToolCallRequest': {
      if (!response.ok) {
        request.resolve(toolError(response.error.message, 'External tool error'));
        return;
      }
      const parsed = toolAnswerSchema.safeParse(response.result);
      request.resolve(
        parsed.success
          ? parsed.data
          : toolError(
              `The client answered the tool call with an invalid result: ${describeIssues(parsed.error)}`,
              'External tool error',
            ),
      );
      return;
    }
    case 'QuestionRequest': {
      const parsed = response.ok ? questionAnswerSchema.safeParse(response.result) : null;
      request.resolve(parsed?.success ? parsed.data.answers : {});
      return;
    }
    case 'HookRequest': {
      const parsed = response.ok ? hookAnswerSchema.safeParse(response.result) : null;
      if (parsed?.success) request.resolve(parsed.data.action, parsed.data.reason ?? '');
      else request.resolve('allow', '');
      return;
    }
  }
  assertNever(request, 'wire request');
}
