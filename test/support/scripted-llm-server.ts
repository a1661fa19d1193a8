import type { ServerResponse } from 'node:http';
import {
  errorResponder,
  LoopbackServer,
  type RecordedRequest,
  startSSE,
  writeSSE,
} from './loopback-server.js';

/** One scripted model answer, streamed in the Chat Completions SSE format. */
export interface ScriptedTurn {
  text?: string;
  think?: string;
  /** `rawArgs`, when given, is sent as the arguments text instead of `args` as JSON (e.g. broken JSON). */
  toolCalls?: { id: string; name: string; args?: unknown; rawArgs?: string }[];
  /** The usage chunk's numbers (default 10 in, 5 out); null: no usage chunk at all, as some servers do. */
  usage?: { prompt_tokens: number; completion_tokens: number } | null;
  /** Answer with this HTTP status (and a JSON error body) instead of a stream. */
  status?: number;
  headers?: Record<string, string>;
  /** Cut the connection after the tool calls were streamed (no finish chunk, no [DONE]). */
  cutAfterToolCalls?: boolean;
  /**
   * Cut the connection part-way: after the text (before any tool call), or in the middle of the
   * arguments of the first tool call (after its first half).
   */
  cut?: 'after-text' | 'mid-arguments';
  /**
   * Go silent and stay so until the client gives up: before the response headers (a server that
   * accepts and never answers) or after the text was streamed.
   */
  stall?: 'before-headers' | 'after-text';
  /** Stream each tool call's arguments in this many fragments instead of two. */
  argumentFragments?: number;
  /** Wait for this after the tool calls were streamed, before anything else is sent. */
  holdAfterToolCalls?: Promise<unknown>;
  /**
   * Wait for this after the text, before the first tool call. A tool call runs as soon as its
   * arguments are complete, before the stream ends: `holdUntil` does not hold its approval back.
   */
  holdBeforeToolCalls?: Promise<unknown>;
  /** Wait for this before finishing the stream (after all content was sent). */
  holdUntil?: Promise<unknown>;
  /** Wait for this after the thinking was streamed, before the text. */
  holdAfterThinking?: Promise<unknown>;
  /** Wait for this after the `finish_reason` chunk, before usage and `[DONE]` (a slow end of stream). */
  holdAfterFinish?: Promise<unknown>;
  /**
   * A hostile model that never stops (after the text and tool calls above): more text, or more
   * arguments for one last tool call (`{"x":"aaaa…`, never closed), until the client goes away.
   */
  endless?: 'text' | 'arguments';
}

const CHUNK = {
  id: 'chatcmpl-e2e',
  object: 'chat.completion.chunk',
  created: 1_700_000_000,
  model: 'e2e-model',
};

function chunk(delta: Record<string, unknown>, finish: string | null = null): Record<string, unknown> {
  return { ...CHUNK, choices: [{ index: 0, delta, finish_reason: finish }] };
}

/**
 * An OpenAI-compatible loopback server whose answers are scripted turn by turn: what end-to-end tests
 * point the real CLI at (provider `openai_legacy` or `kimi` with this base URL).
 */
export class ScriptedLLMServer {
  private constructor(private readonly server: LoopbackServer) {}

  static async start(turns: ScriptedTurn[] = []): Promise<ScriptedLLMServer> {
    const s = new ScriptedLLMServer(await LoopbackServer.start());
    s.server.fallback = errorResponder(500, {
      error: { message: 'The scripted LLM server has no turn left.' },
    });
    s.push(...turns);
    return s;
  }

  get baseUrl(): string {
    return `${this.server.url}/v1`;
  }

  get requests(): RecordedRequest[] {
    return this.server.requests.filter((r) => r.path.endsWith('/chat/completions'));
  }

  /** Resolves once `count` requests (of any path) have arrived. */
  waitForRequests(count: number): Promise<void> {
    return this.server.waitForRequests(count);
  }

  /**
   * Answers every request the queue does not from its body, the way a model answers from the
   * history: a retried request gets the same answer as the one that failed.
   */
  answerBy(respond: (body: unknown) => ScriptedTurn): void {
    this.server.fallback = (req, res) => answerTurn(respond(req.body), res);
  }

  push(...turns: ScriptedTurn[]): void {
    for (const turn of turns) this.server.enqueue((_req, res) => answerTurn(turn, res));
  }

  close(): Promise<void> {
    return this.server.close();
  }
}

/** Streams one scripted answer in the Chat Completions SSE format (or its HTTP error). */
export async function answerTurn(turn: ScriptedTurn, res: ServerResponse): Promise<void> {
  if (turn.status) {
    res.writeHead(turn.status, {
      'content-type': 'application/json',
      'x-request-id': 'req-e2e',
      ...turn.headers,
    });
    res.end(JSON.stringify({ error: { message: `scripted status ${turn.status}`, type: 'scripted' } }));
    return;
  }
  if (turn.stall === 'before-headers') return untilClosed(res);
  startSSE(res, { 'x-request-id': 'req-e2e', ...turn.headers });
  if (turn.think) writeSSE(res, chunk({ role: 'assistant', reasoning_content: turn.think }));
  if (turn.holdAfterThinking) await turn.holdAfterThinking;
  if (turn.text) writeSSE(res, chunk({ role: 'assistant', content: turn.text }));
  if (turn.cut === 'after-text') return cut(res);
  if (turn.stall === 'after-text') return untilClosed(res);
  if (turn.holdBeforeToolCalls) await turn.holdBeforeToolCalls;
  for (const [index, call] of (turn.toolCalls ?? []).entries()) {
    const args = call.rawArgs ?? JSON.stringify(call.args ?? {});
    const fragments = splitEvenly(args, turn.argumentFragments ?? 2);
    if (turn.cut === 'mid-arguments') fragments.splice(Math.ceil(fragments.length / 2));
    fragments.forEach((fragment, i) => {
      const head =
        i === 0
          ? { id: call.id, type: 'function', function: { name: call.name, arguments: fragment } }
          : { function: { arguments: fragment } };
      writeSSE(res, chunk({ tool_calls: [{ index, ...head }] }));
    });
    if (turn.cut === 'mid-arguments') return cut(res);
  }
  if (turn.endless) return streamEndlessly(res, turn.endless, turn.toolCalls?.length ?? 0);
  if (turn.holdAfterToolCalls) await turn.holdAfterToolCalls;
  if (turn.cutAfterToolCalls) return cut(res);
  if (turn.holdUntil) await turn.holdUntil;
  writeSSE(res, chunk({}, turn.toolCalls?.length ? 'tool_calls' : 'stop'));
  if (turn.holdAfterFinish) await turn.holdAfterFinish;
  if (turn.usage !== null) {
    writeSSE(res, {
      ...CHUNK,
      choices: [],
      usage: { ...(turn.usage ?? { prompt_tokens: 10, completion_tokens: 5 }), total_tokens: 0 },
    });
  }
  writeSSE(res, '[DONE]');
  res.end();
}

/** Streams text or one tool call's arguments, 64 KiB a chunk, until the client closes the connection. */
async function streamEndlessly(
  res: ServerResponse,
  kind: 'text' | 'arguments',
  index: number,
): Promise<void> {
  const piece = 'a'.repeat(64 * 1024);
  if (kind === 'arguments') {
    const head = { id: 'endless', type: 'function', function: { name: 'Shell', arguments: '{"command":"' } };
    writeSSE(res, chunk({ tool_calls: [{ index, ...head }] }));
  }
  const next =
    kind === 'text'
      ? chunk({ content: piece })
      : chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
  const closed = untilClosed(res);
  let gone = false;
  void closed.then(() => {
    gone = true;
  });
  while (!gone && !res.destroyed) {
    writeSSE(res, next);
    // Waits for the client to read (or go): a full buffer, or the connection closing.
    if (res.writableNeedDrain)
      await Promise.race([new Promise((resolve) => res.once('drain', resolve)), closed]);
    else await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** Breaks the connection once what was written has reached the client. */
async function cut(res: ServerResponse): Promise<void> {
  await new Promise<void>((resolve) => res.write('', () => resolve()));
  res.destroy();
}

/** Resolves when the client has gone (it gave up, or the server closed). */
function untilClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    if (res.req.socket.destroyed) resolve();
    else res.req.socket.once('close', () => resolve());
  });
}

/** `text` in `count` pieces (fewer when it is shorter), none empty. */
function splitEvenly(text: string, count: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / Math.max(1, count)));
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces.length > 0 ? pieces : [''];
}
