// A loopback OpenAI Responses API server for the peers bench (codex speaks only this API): answers
// each POST with the next scripted turn as a Responses SSE stream, or a 500 when none is left.
// A turn is `{ command }` (a call of codex's `exec_command` tool) or `{ text }` (the final answer).
import { createServer } from 'node:http';

const USAGE = {
  input_tokens: 10,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: 5,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 15,
};

function streamTurn(res, turn, n) {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const send = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  const id = `resp_${n}`;
  const item = turn.command
    ? {
        type: 'function_call',
        id: `fc_${n}`,
        call_id: `call_${n}`,
        name: 'exec_command',
        arguments: JSON.stringify({ cmd: turn.command }),
        status: 'completed',
      }
    : {
        type: 'message',
        id: `msg_${n}`,
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: turn.text, annotations: [] }],
      };
  send('response.created', { response: { id } });
  send('response.output_item.added', { output_index: 0, item });
  if (turn.text)
    send('response.output_text.delta', {
      item_id: item.id,
      output_index: 0,
      content_index: 0,
      delta: turn.text,
    });
  send('response.output_item.done', { output_index: 0, item });
  send('response.completed', { response: { id, usage: USAGE } });
  res.end();
}

/** `{ baseUrl, push(...turns), pending(), close() }` */
export async function startResponsesServer() {
  const turns = [];
  let served = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const turn = req.method === 'POST' ? turns.shift() : undefined;
      if (turn) return streamTurn(res, turn, ++served);
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{"error":{"message":"bench"}}');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${server.address().port}/v1`,
    push: (...more) => turns.push(...more),
    /** Turns pushed and not yet served. */
    pending: () => turns.length,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
