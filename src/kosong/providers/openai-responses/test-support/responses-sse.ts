import type { ServerResponse } from 'node:http';
import { type Responder, startSSE, writeSSE } from '../../../../../test/support/loopback-server.js';

/** A Responses stream event before its `sequence_number` is assigned. */
export type ResponsesEventBody = { type: string } & Record<string, unknown>;

/** Writes events in the real Responses SSE format: an `event:` line, `type` and `sequence_number` in data. */
export function writeResponsesEvents(
  res: ServerResponse,
  events: readonly ResponsesEventBody[],
  start = 0,
): number {
  let sequence = start;
  for (const event of events) writeSSE(res, { ...event, sequence_number: sequence++ }, event.type);
  return sequence;
}

export const REQUEST_ID = 'req_test_123';

/** A responder that streams the events and ends the response. */
export function responsesStream(events: readonly ResponsesEventBody[]): Responder {
  return (_req, res) => {
    startSSE(res, { 'x-request-id': REQUEST_ID });
    writeResponsesEvents(res, events);
    res.end();
  };
}

const responseShell = (id: string, status: string, extra: Record<string, unknown> = {}) => ({
  id,
  object: 'response',
  created_at: 1_700_000_000,
  status,
  model: 'gpt-test',
  output: [],
  ...extra,
});

export const ev = {
  created: (id = 'resp_1'): ResponsesEventBody => ({
    type: 'response.created',
    response: responseShell(id, 'in_progress'),
  }),
  messageAdded: (index: number, id = `msg_${index}`): ResponsesEventBody => ({
    type: 'response.output_item.added',
    output_index: index,
    item: { id, type: 'message', status: 'in_progress', role: 'assistant', content: [] },
  }),
  textDelta: (index: number, delta: string, itemId = `msg_${index}`): ResponsesEventBody => ({
    type: 'response.output_text.delta',
    item_id: itemId,
    output_index: index,
    content_index: 0,
    delta,
    logprobs: [],
  }),
  messageDone: (index: number, text: string, id = `msg_${index}`): ResponsesEventBody => ({
    type: 'response.output_item.done',
    output_index: index,
    item: {
      id,
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text, annotations: [] }],
    },
  }),
  reasoningAdded: (index: number, id = `rs_${index}`): ResponsesEventBody => ({
    type: 'response.output_item.added',
    output_index: index,
    item: { id, type: 'reasoning', summary: [] },
  }),
  summaryPartAdded: (index: number, summaryIndex: number, itemId = `rs_${index}`): ResponsesEventBody => ({
    type: 'response.reasoning_summary_part.added',
    item_id: itemId,
    output_index: index,
    summary_index: summaryIndex,
    part: { type: 'summary_text', text: '' },
  }),
  summaryDelta: (
    index: number,
    summaryIndex: number,
    delta: string,
    itemId = `rs_${index}`,
  ): ResponsesEventBody => ({
    type: 'response.reasoning_summary_text.delta',
    item_id: itemId,
    output_index: index,
    summary_index: summaryIndex,
    delta,
  }),
  reasoningDone: (
    index: number,
    summary: string[],
    encrypted: string | null,
    id = `rs_${index}`,
  ): ResponsesEventBody => ({
    type: 'response.output_item.done',
    output_index: index,
    item: {
      id,
      type: 'reasoning',
      summary: summary.map((text) => ({ type: 'summary_text', text })),
      ...(encrypted === null ? {} : { encrypted_content: encrypted }),
    },
  }),
  callAdded: (index: number, callId: string, name: string, id = `fc_${index}`): ResponsesEventBody => ({
    type: 'response.output_item.added',
    output_index: index,
    item: { id, type: 'function_call', status: 'in_progress', call_id: callId, name, arguments: '' },
  }),
  argsDelta: (index: number, delta: string, itemId = `fc_${index}`): ResponsesEventBody => ({
    type: 'response.function_call_arguments.delta',
    item_id: itemId,
    output_index: index,
    delta,
  }),
  argsDone: (index: number, args: string, itemId = `fc_${index}`): ResponsesEventBody => ({
    type: 'response.function_call_arguments.done',
    item_id: itemId,
    output_index: index,
    arguments: args,
  }),
  callDone: (
    index: number,
    callId: string,
    name: string,
    args: string,
    id = `fc_${index}`,
  ): ResponsesEventBody => ({
    type: 'response.output_item.done',
    output_index: index,
    item: { id, type: 'function_call', status: 'completed', call_id: callId, name, arguments: args },
  }),
  completed: (
    usage = { input_tokens: 10, output_tokens: 5, cached: 0 },
    id = 'resp_1',
  ): ResponsesEventBody => ({
    type: 'response.completed',
    response: responseShell(id, 'completed', {
      usage: {
        input_tokens: usage.input_tokens,
        input_tokens_details: { cached_tokens: usage.cached },
        output_tokens: usage.output_tokens,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: usage.input_tokens + usage.output_tokens,
      },
    }),
  }),
  failed: (code: string, message: string, id = 'resp_1'): ResponsesEventBody => ({
    type: 'response.failed',
    response: responseShell(id, 'failed', { error: { code, message } }),
  }),
  error: (code: string, message: string): ResponsesEventBody => ({
    type: 'error',
    code,
    message,
    param: null,
  }),
};

/** Splits a string into chunks of at most `size` characters (argument deltas "over many chunks"). */
export function chunk(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}
