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
  toolCalls?: { id: string; name: string; args: unknown }[];
  usage?: { prompt_tokens: number; completion_tokens: number };
  /** Answer with this HTTP status (and a JSON error body) instead of a stream. */
  status?: number;
  headers?: Record<string, string>;
  /** Cut the connection after the tool calls were streamed (no finish chunk, no [DONE]). */
  cutAfterToolCalls?: boolean;
  /** Wait for this before finishing the stream (after all content was sent). */
  holdUntil?: Promise<unknown>;
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

  push(...turns: ScriptedTurn[]): void {
    for (const turn of turns) this.server.enqueue((_req, res) => this.answer(turn, res));
  }

  close(): Promise<void> {
    return this.server.close();
  }

  private async answer(turn: ScriptedTurn, res: ServerResponse): Promise<void> {
    if (turn.status) {
      res.writeHead(turn.status, {
        'content-type': 'application/json',
        'x-request-id': 'req-e2e',
        ...turn.headers,
      });
      res.end(JSON.stringify({ error: { message: `scripted status ${turn.status}`, type: 'scripted' } }));
      return;
    }
    startSSE(res, { 'x-request-id': 'req-e2e', ...turn.headers });
    if (turn.think) writeSSE(res, chunk({ role: 'assistant', reasoning_content: turn.think }));
    if (turn.text) writeSSE(res, chunk({ role: 'assistant', content: turn.text }));
    (turn.toolCalls ?? []).forEach((call, index) => {
      const args = JSON.stringify(call.args);
      const half = Math.ceil(args.length / 2);
      writeSSE(
        res,
        chunk({
          tool_calls: [
            {
              index,
              id: call.id,
              type: 'function',
              function: { name: call.name, arguments: args.slice(0, half) },
            },
          ],
        }),
      );
      writeSSE(res, chunk({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] }));
    });
    if (turn.cutAfterToolCalls) {
      // Let the bytes reach the client before the connection breaks.
      await new Promise<void>((resolve) => res.write('', () => resolve()));
      res.destroy();
      return;
    }
    if (turn.holdUntil) await turn.holdUntil;
    writeSSE(res, chunk({}, turn.toolCalls?.length ? 'tool_calls' : 'stop'));
    writeSSE(res, {
      ...CHUNK,
      choices: [],
      usage: { ...(turn.usage ?? { prompt_tokens: 10, completion_tokens: 5 }), total_tokens: 0 },
    });
    writeSSE(res, '[DONE]');
    res.end();
  }
}
