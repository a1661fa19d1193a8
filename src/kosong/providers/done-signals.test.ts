import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LoopbackServer, startSSE, writeSSE } from '../../../test/support/loopback-server.js';
import { generate } from '../generate.js';
import { type Message, message, type ToolCall } from '../message.js';
import type { ChatProvider } from '../provider.js';
import { AnthropicProvider } from './anthropic/anthropic-provider.js';
import { messageStart, sseResponder, toolUseBlock } from './anthropic/test-support/anthropic-sse.js';
import { OpenAIChatProvider } from './openai-chat/openai-legacy-provider.js';
import { deltaChunk, toolArgsChunk, toolHeaderChunk } from './openai-chat/test-support/chat-sse.js';
import { OpenAIResponsesProvider } from './openai-responses/provider.js';
import { ev, writeResponsesEvents } from './openai-responses/test-support/responses-sse.js';

/**
 * #13 item 2: a call is complete when the provider says its arguments are (Anthropic
 * `content_block_stop`, Responses `function_call_arguments.done` / `output_item.done`, Chat
 * Completions `finish_reason`), not only when they form closed JSON. Each stream here sends broken
 * JSON arguments, the provider's "done", and then stays open: only a call handed on at the "done"
 * lets the test end (it aborts the call from `onToolCall`).
 */
let server: LoopbackServer;
beforeEach(async () => {
  server = await LoopbackServer.start();
});
afterEach(async () => {
  await server.close();
});

const BROKEN = '{"path": "a.txt", "limit": ';
const history: Message[] = [message('user', 'go')];

/** Until the client goes away. */
const held = (res: ServerResponse) => new Promise<void>((resolve) => res.once('close', () => resolve()));

async function firstCallBeforeTheEnd(provider: ChatProvider): Promise<ToolCall[]> {
  const controller = new AbortController();
  const calls: ToolCall[] = [];
  const done = generate(provider, 'sys', [], history, {
    signal: controller.signal,
    onToolCall: (call) => {
      calls.push(structuredClone(call));
      controller.abort();
    },
  });
  await expect(done).rejects.toMatchObject({ name: 'AbortError' });
  return calls;
}

describe('tool calls are complete at the provider’s done signal', () => {
  it('Anthropic: content_block_stop of a tool_use block', async () => {
    server.enqueue(
      sseResponder(
        [messageStart('msg_1', { input_tokens: 1 }), ...toolUseBlock(0, 'toolu_1', 'Read', [BROKEN])],
        {
          ending: 'hold',
        },
      ),
    );
    const provider = new AnthropicProvider({ model: 'claude-test', baseUrl: server.url, apiKey: 'sk-ant-x' });
    const calls = await firstCallBeforeTheEnd(provider);
    expect(calls.map((c) => [c.id, c.function.arguments])).toEqual([['toolu_1', BROKEN]]);
  });

  for (const signal of ['function_call_arguments.done', 'output_item.done'] as const) {
    it(`Responses: response.${signal}`, async () => {
      server.enqueue(async (_req, res) => {
        startSSE(res);
        writeResponsesEvents(res, [
          ev.created(),
          ev.callAdded(0, 'call_1', 'Read'),
          ev.argsDelta(0, BROKEN),
          signal === 'output_item.done' ? ev.callDone(0, 'call_1', 'Read', BROKEN) : ev.argsDone(0, BROKEN),
        ]);
        await held(res);
      });
      const provider = new OpenAIResponsesProvider({
        model: 'gpt-test',
        baseUrl: `${server.url}/v1`,
        apiKey: 'sk-x',
      });
      const calls = await firstCallBeforeTheEnd(provider);
      expect(calls.map((c) => [c.id, c.function.arguments])).toEqual([['call_1', BROKEN]]);
    });
  }

  it('Chat Completions: finish_reason', async () => {
    server.enqueue(async (_req, res) => {
      startSSE(res);
      writeSSE(res, toolHeaderChunk(0, 'call_1', 'Read'));
      writeSSE(res, toolArgsChunk(0, BROKEN));
      writeSSE(res, deltaChunk({}, 'tool_calls'));
      await held(res);
    });
    const provider = new OpenAIChatProvider({
      model: 'gpt-test',
      baseUrl: `${server.url}/v1`,
      apiKey: 'sk-x',
    });
    const calls = await firstCallBeforeTheEnd(provider);
    expect(calls.map((c) => [c.id, c.function.arguments])).toEqual([['call_1', BROKEN]]);
  });
});
