import type { JsonRpcMessage, WireClient } from './wire-process-client.js';

/** What a wire client is shown of an approval request. */
export interface AskedApproval {
  id: string;
  action: string;
  description: string;
  display: Record<string, unknown>[];
}

/**
 * Answers every approval request of a wire session with `reject`, keeping what was asked (filled in as
 * the requests come): the set-up of the tests where a rule must not let a call through unasked.
 */
export function rejectEveryApproval(client: WireClient): AskedApproval[] {
  const asked: AskedApproval[] = [];
  const answered = new Set<unknown>();
  const poll = (): void => {
    void client
      .waitFor((m) => m.method === 'request' && !answered.has(m.id))
      .then((message: JsonRpcMessage) => {
        answered.add(message.id);
        const params = message.params as { type: string; payload: AskedApproval };
        if (params.type === 'ApprovalRequest') {
          asked.push(params.payload);
          client.send({
            jsonrpc: '2.0',
            id: message.id,
            result: { request_id: params.payload.id, response: 'reject' },
          });
        }
        poll();
      });
  };
  poll();
  return asked;
}
