import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LoopbackServer } from '../../../../test/support/loopback-server.js';
import { generate } from '../../generate.js';
import type { Message, StreamedPart, ToolCall } from '../../message.js';
import type { Tool } from '../../tool.js';
import type { ProviderOptions } from '../options.js';
import { AnthropicProvider } from './anthropic-provider.js';
import {
  messageDelta,
  messageStart,
  messageStop,
  ping,
  redactedThinkingBlock,
  slices,
  sseResponder,
  textBlock,
  thinkingBlock,
  toolUseBlock,
} from './test-support/anthropic-sse.js';

const API_KEY = 'sk-ant-test-secret';
let server: LoopbackServer;

beforeAll(async () => {
  server = await LoopbackServer.start();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
});

function provider(extra: Partial<ProviderOptions> = {}): AnthropicProvider {
  return new AnthropicProvider({ model: 'claude-test', baseUrl: server.url, apiKey: API_KEY, ...extra });
}

async function collect(p: AnthropicProvider, history: Message[] = [user('hi')]): Promise<StreamedPart[]> {
  const stream = await p.generate({ systemPrompt: 'sys', tools: [], history });
  const parts: StreamedPart[] = [];
  for await (const part of stream) if (part.type !== 'tool_call_end') parts.push(part);
  return parts;
}

const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });
const requestBody = (i = 0): Record<string, unknown> => server.requests[i]?.body as Record<string, unknown>;

describe('AnthropicProvider streaming', () => {
  it('streams text, reports id and usage, and sends system, max_tokens, metadata and headers', async () => {
    server.enqueue(
      sseResponder([
        messageStart('msg_text', {
          input_tokens: 12,
          cache_read_input_tokens: 30,
          cache_creation_input_tokens: 5,
        }),
        ping(),
        ...textBlock(0, ['Hel', 'lo', ' world']),
        messageDelta('end_turn', 7),
        messageStop(),
      ]),
    );
    const p = provider({ customHeaders: { 'X-Custom-Tag': 'kimi-ts' }, sessionId: 'session-42' });
    const stream = await p.generate({ systemPrompt: 'You are terse.', tools: [], history: [user('hi')] });
    const parts: StreamedPart[] = [];
    for await (const part of stream) if (part.type !== 'tool_call_end') parts.push(part);

    expect(parts).toEqual([
      { type: 'text', text: 'Hel' },
      { type: 'text', text: 'lo' },
      { type: 'text', text: ' world' },
    ]);
    expect(stream.id).toBe('msg_text');
    expect(stream.usage).toEqual({
      input_other: 12,
      input_cache_read: 30,
      input_cache_creation: 5,
      output: 7,
    });

    const req = server.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v1/messages');
    // SDK 1.x sends the key as a bearer token, not as `x-api-key`.
    expect(req.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(req.headers['x-api-key']).toBeUndefined();
    expect(req.headers['anthropic-version']).toBeTruthy();
    expect(req.headers['x-custom-tag']).toBe('kimi-ts');
    expect(req.headers['x-stainless-retry-count']).toBe('0');
    expect(requestBody()).toMatchObject({
      model: 'claude-test',
      max_tokens: 50_000,
      stream: true,
      system: [{ type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral' } }],
      metadata: { user_id: 'session-42' },
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } }] },
      ],
    });
    expect(requestBody()).not.toHaveProperty('thinking');
    expect(requestBody()).not.toHaveProperty('temperature');
  });

  it('streams signed thinking that merges into one sealed think part', async () => {
    server.enqueue(
      sseResponder([
        messageStart('msg_think'),
        ...thinkingBlock(0, ['Let me ', 'think.'], 'sig-abc'),
        ...textBlock(1, ['Done.']),
        messageDelta('end_turn', 9),
        messageStop(),
      ]),
    );
    const onParts: StreamedPart[] = [];
    const result = await generate(provider({ thinkingEffort: 'high' }), 'sys', [], [user('think')], {
      onMessagePart: (part) => onParts.push(part),
    });

    expect(onParts).toEqual([
      { type: 'think', think: 'Let me ' },
      { type: 'think', think: 'think.' },
      { type: 'think', think: '', encrypted: 'sig-abc' },
      { type: 'text', text: 'Done.' },
    ]);
    expect(result.message).toEqual({
      role: 'assistant',
      content: [
        { type: 'think', think: 'Let me think.', encrypted: 'sig-abc' },
        { type: 'text', text: 'Done.' },
      ],
    });
    expect(result.id).toBe('msg_think');
    expect(requestBody().thinking).toEqual({ type: 'enabled', budget_tokens: 16_384 });
  });

  it('assembles two parallel tool calls whose arguments arrive in many pieces', async () => {
    const argsA = '{"path": "src/main.ts", "line_offset": 10}';
    const argsB = '{"command": "ls -la | grep \\"x\\""}';
    server.enqueue(
      sseResponder(
        [
          messageStart('msg_tools'),
          ...textBlock(0, ['Reading.']),
          ...toolUseBlock(1, 'toolu_A', 'ReadFile', slices(argsA, 3)),
          ...toolUseBlock(2, 'toolu_B', 'Shell', slices(argsB, 2)),
          ...toolUseBlock(3, 'toolu_C', 'Think', []),
          messageDelta('tool_use', 40),
          messageStop(),
        ],
        { pieceSize: 17 },
      ),
    );
    const tools: Tool[] = [
      {
        name: 'ReadFile',
        description: 'Read a file.',
        parameters: { type: 'object', properties: { path: {} } },
      },
      { name: 'Shell', description: 'Run a command.', parameters: { properties: { command: {} } } },
    ];
    const parts: StreamedPart[] = [];
    const completed: string[] = [];
    const result = await generate(provider(), 'sys', tools, [user('go')], {
      onMessagePart: (part) => parts.push(part),
      onToolCall: (call) => completed.push(call.id),
    });

    expect(parts.filter((part) => part.type === 'tool_call_part').length).toBe(
      slices(argsA, 3).length + slices(argsB, 2).length + 1,
    );
    expect(parts.filter((part) => part.type === 'function')).toEqual([
      { type: 'function', id: 'toolu_A', function: { name: 'ReadFile', arguments: '' } },
      { type: 'function', id: 'toolu_B', function: { name: 'Shell', arguments: '' } },
      { type: 'function', id: 'toolu_C', function: { name: 'Think', arguments: '' } },
    ]);
    const call = (id: string, name: string, args: string): ToolCall => ({
      type: 'function',
      id,
      function: { name, arguments: args },
    });
    expect(result.message.tool_calls).toEqual([
      call('toolu_A', 'ReadFile', argsA),
      call('toolu_B', 'Shell', argsB),
      call('toolu_C', 'Think', '{}'),
    ]);
    expect(result.message.content).toEqual([{ type: 'text', text: 'Reading.' }]);
    expect(completed).toEqual(['toolu_A', 'toolu_B', 'toolu_C']);
    expect(result.usage?.output).toBe(40);
    expect(requestBody().tools).toEqual([
      {
        name: 'ReadFile',
        description: 'Read a file.',
        input_schema: { type: 'object', properties: { path: {} } },
      },
      {
        name: 'Shell',
        description: 'Run a command.',
        input_schema: { type: 'object', properties: { command: {} } },
        cache_control: { type: 'ephemeral' },
      },
    ]);
  });

  it('converts history: signed thinking, tool_use input, merged tool results and following user text', async () => {
    server.enqueue(
      sseResponder([
        messageStart('msg_h'),
        ...textBlock(0, ['ok']),
        messageDelta('end_turn', 1),
        messageStop(),
      ]),
    );
    const history: Message[] = [
      user('list files'),
      {
        role: 'assistant',
        content: [
          { type: 'think', think: 'plan', encrypted: 'sig-1' },
          { type: 'think', think: 'unsigned musing' },
          { type: 'text', text: '' },
          { type: 'text', text: 'Running two tools.' },
        ],
        tool_calls: [
          { type: 'function', id: 't1', function: { name: 'Glob', arguments: '{"pattern":"*.ts"}' } },
          { type: 'function', id: 't2', function: { name: 'Shell', arguments: '{"command": "ls' } },
        ],
      },
      { role: 'tool', tool_call_id: 't1', content: [{ type: 'text', text: 'a.ts\nb.ts' }] },
      { role: 'tool', tool_call_id: 't2', content: [] },
      user('also check docs'),
    ];
    await collect(provider({ maxTokens: 8_000, temperature: 0.3 }), history);

    const body = requestBody();
    expect(body.max_tokens).toBe(8_000);
    expect(body.temperature).toBe(0.3);
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'list files' }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'plan', signature: 'sig-1' },
          { type: 'text', text: 'Running two tools.' },
          { type: 'tool_use', id: 't1', name: 'Glob', input: { pattern: '*.ts' } },
          { type: 'tool_use', id: 't2', name: 'Shell', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'a.ts\nb.ts' }] },
          { type: 'tool_result', tool_use_id: 't2' },
          { type: 'text', text: 'also check docs', cache_control: { type: 'ephemeral' } },
        ],
      },
    ]);
  });

  it('keeps redacted thinking and sends it back unchanged with its tool call', async () => {
    server.enqueue(
      sseResponder([
        messageStart('msg_redacted'),
        ...redactedThinkingBlock(0, 'EncryptedReasoning+/=='),
        ...thinkingBlock(1, [''], 'sig-after'),
        ...toolUseBlock(2, 'tu1', 'Glob', ['{"pattern":', '"*.md"}']),
        messageDelta('tool_use', 5),
        messageStop(),
      ]),
      sseResponder([
        messageStart('msg_next'),
        ...textBlock(0, ['ok']),
        messageDelta('end_turn', 1),
        messageStop(),
      ]),
    );
    const first = await generate(provider({ thinkingEffort: 'high' }), 'sys', [], [user('find docs')]);
    const redacted = first.message.content[0];
    expect(redacted).toMatchObject({ type: 'think', think: '' });
    // A signed block whose text is empty stays an ordinary (signed) thinking block.
    expect(first.message.content[1]).toEqual({ type: 'think', think: '', encrypted: 'sig-after' });

    const history: Message[] = [
      user('find docs'),
      first.message,
      { role: 'tool', tool_call_id: 'tu1', content: [{ type: 'text', text: 'README.md' }] },
    ];
    await collect(provider({ thinkingEffort: 'high' }), history);
    expect((requestBody(1).messages as { content: unknown }[])[1]?.content).toEqual([
      { type: 'redacted_thinking', data: 'EncryptedReasoning+/==' },
      { type: 'thinking', thinking: '', signature: 'sig-after' },
      { type: 'tool_use', id: 'tu1', name: 'Glob', input: { pattern: '*.md' } },
    ]);
  });

  it('withThinking returns a configured copy and leaves the original alone', async () => {
    const base = provider();
    const off = base.withThinking('off');
    const low = base.withThinking('low');
    expect(base.thinkingEffort).toBeNull();
    expect([off.thinkingEffort, low.thinkingEffort]).toEqual(['off', 'low']);
    expect(off).not.toBe(base);

    for (const p of [base, off, low]) {
      server.enqueue(
        sseResponder([messageStart('m'), ...textBlock(0, ['x']), messageDelta('end_turn', 1), messageStop()]),
      );
      await collect(p);
    }
    expect(requestBody(0)).not.toHaveProperty('thinking');
    expect(requestBody(1).thinking).toEqual({ type: 'disabled' });
    expect(requestBody(2).thinking).toEqual({ type: 'enabled', budget_tokens: 2_048 });
  });
});

describe('AnthropicProvider tool calls complete at content_block_stop', () => {
  it('hands each call on while the message is still streaming, an input-less one as {}', async () => {
    server.enqueue(
      sseResponder(
        [
          messageStart('msg_early', { input_tokens: 1 }),
          ...toolUseBlock(0, 'toolu_1', 'Ping', []),
          ...toolUseBlock(1, 'toolu_2', 'Read', ['{"pa', 'th": "a.txt"}']),
        ],
        { ending: 'hold' },
      ),
    );
    const controller = new AbortController();
    const calls: ToolCall[] = [];
    const done = generate(provider(), 'sys', [], [user('go')], {
      signal: controller.signal,
      onToolCall: (call) => {
        calls.push(structuredClone(call));
        if (calls.length === 2) controller.abort();
      },
    });
    // The stream never ends: only dispatch during the stream lets the test abort it.
    await expect(done).rejects.toMatchObject({ name: 'AbortError' });
    expect(calls.map((c) => [c.id, c.function.arguments])).toEqual([
      ['toolu_1', '{}'],
      ['toolu_2', '{"path": "a.txt"}'],
    ]);
  });
});
