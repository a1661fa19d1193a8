// A loopback OpenAI-compatible server for the start-up and TUI benchmarks: answers each request with
// the next scripted turn (Chat Completions SSE; its text at once, or paced), or a 500 when none is left.
import { createServer } from 'node:http';

const CHUNK = { id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'm' };
const chunk = (delta, finish = null) => ({ ...CHUNK, choices: [{ index: 0, delta, finish_reason: finish }] });

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function streamTurn(res, turn) {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const send = (data) => res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
  if (turn.text) send(chunk({ role: 'assistant', content: turn.text }));
  // A paced answer: `pieces` of text, `perTick` of them every `tickMs` (a model streaming tokens).
  if (turn.paced) {
    const { pieces, perTick, tickMs } = turn.paced;
    for (let at = 0; at < pieces.length; at += perTick) {
      if (res.destroyed) return;
      send(chunk({ role: 'assistant', content: pieces.slice(at, at + perTick).join('') }));
      await pause(tickMs);
    }
  }
  (turn.toolCalls ?? []).forEach((call, index) => {
    const tool = {
      index,
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: JSON.stringify(call.args) },
    };
    send(chunk({ tool_calls: [tool] }));
  });
  send(chunk({}, turn.toolCalls?.length ? 'tool_calls' : 'stop'));
  send({ ...CHUNK, choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } });
  send('[DONE]');
  res.end();
}

/** `{ baseUrl, push(...turns), pending(), onNextRequest(callback), close() }` */
export async function startScriptedServer() {
  const turns = [];
  let waiter;
  const server = createServer((req, res) => {
    const notify = waiter;
    waiter = undefined;
    notify?.();
    req.resume();
    req.on('end', () => {
      const turn = turns.shift();
      if (turn) return void streamTurn(res, turn);
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
    onNextRequest: (callback) => {
      waiter = callback;
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
