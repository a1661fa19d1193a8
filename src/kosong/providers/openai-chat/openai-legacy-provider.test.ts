import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LoopbackServer } from '../../../../test/support/loopback-server.js';
import { generate } from '../../generate.js';
import { type Message, message, type StreamedPart, type ToolCall } from '../../message.js';
import type { Tool } from '../../tool.js';
import { OpenAIChatProvider } from './openai-legacy-provider.js';
import {
  CHUNK_ID,
  chatStream,
  deltaChunk,
  finishChunk,
  pieces,
  textChunk,
  toolArgsChunk,
  toolHeaderChunk,
  usageChunk,
} from './test-support/chat-sse.js';

const API_KEY = 'sk-legacy-secret-0123456789';
const history: Message[] = [message('user', 'hi')];

let server: LoopbackServer;
beforeEach(async () => {
  server = await LoopbackServer.start();
});
afterEach(async () => {
  await server.close();
});

function provider(
  extra: Partial<ConstructorParameters<typeof OpenAIChatProvider>[0]> = {},
): OpenAIChatProvider {
  return new OpenAIChatProvider({
    model: 'gpt-test',
    baseUrl: `${server.url}/v1`,
    apiKey: API_KEY,
    ...extra,
  });
}

/** Runs `generate` and also collects the raw parts as the provider streamed them. */
async function run(p: OpenAIChatProvider, msgs: Message[] = history, tools: Tool[] = []) {
  const raw: StreamedPart[] = [];
  const result = await generate(p, 'You are a test.', tools, msgs, {
    onMessagePart: (part) => raw.push(part),
  });
  return { ...result, raw };
}

function lastBody(): Record<string, unknown> {
  const body = server.requests.at(-1)?.body;
  if (typeof body !== 'object' || body === null) throw new Error('no JSON request body recorded');
  return body as Record<string, unknown>;
}

describe('OpenAIChatProvider streaming', () => {
  it('streams text and sends the system prompt, auth and custom headers', async () => {
    server.enqueue(chatStream([textChunk('Hel'), textChunk('lo'), finishChunk()]));
    const { message: answer, raw, id } = await run(provider({ customHeaders: { 'X-Team': 'tools\n' } }));

    expect(raw).toEqual([
      { type: 'text', text: 'Hel' },
      { type: 'text', text: 'lo' },
    ]);
    expect(answer).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Hello' }] });
    expect(id).toBe(CHUNK_ID);

    const request = server.requests[0]!;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request.headers['x-team']).toBe('tools');
    expect(lastBody()).toEqual({
      model: 'gpt-test',
      messages: [
        { role: 'system', content: 'You are a test.' },
        { role: 'user', content: 'hi' },
      ],
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('turns reasoning deltas into think parts under the configured key', async () => {
    const stream = () =>
      chatStream([
        deltaChunk({ reasoning_content: 'Let me ' }),
        deltaChunk({ reasoning_content: 'think.' }),
        deltaChunk({ reasoning: 'other key' }),
        textChunk('Done.'),
      ]);
    server.enqueue(stream(), stream(), stream());

    expect((await run(provider())).message.content).toEqual([
      { type: 'think', think: 'Let me think.' },
      { type: 'text', text: 'Done.' },
    ]);
    expect((await run(provider({ reasoningKey: 'reasoning' }))).message.content).toEqual([
      { type: 'think', think: 'other key' },
      { type: 'text', text: 'Done.' },
    ]);
    expect((await run(provider({ reasoningKey: '' }))).message.content).toEqual([
      { type: 'text', text: 'Done.' },
    ]);
  });

  it('reports usage with cache hits split from the rest of the prompt', async () => {
    server.enqueue(
      chatStream([
        textChunk('ok'),
        finishChunk(),
        usageChunk({
          prompt_tokens: 120,
          completion_tokens: 7,
          prompt_tokens_details: { cached_tokens: 100 },
        }),
      ]),
    );
    const { usage } = await run(provider());
    expect(usage).toEqual({ input_other: 20, input_cache_read: 100, input_cache_creation: 0, output: 7 });
  });
});

describe('OpenAIChatProvider tool calls', () => {
  const argsA = JSON.stringify({ path: 'src/a.ts', content: 'export const a = 1;\n' });
  const argsB = JSON.stringify({ command: 'ls -la "dir with } brace"', timeout: 10 });

  it('assembles two parallel calls whose arguments arrive over many chunks', async () => {
    server.enqueue(
      chatStream([
        toolHeaderChunk(0, 'call_a', 'WriteFile'),
        ...pieces(argsA, 5).map((piece) => toolArgsChunk(0, piece)),
        toolHeaderChunk(1, 'call_b', 'Shell'),
        ...pieces(argsB, 3).map((piece) => toolArgsChunk(1, piece)),
        finishChunk('tool_calls'),
      ]),
    );
    const completedAt: string[] = [];
    const raw: StreamedPart[] = [];
    const result = await generate(provider(), '', [], history, {
      onMessagePart: (part) => raw.push(part),
      onToolCall: (call) => completedAt.push(`${call.id}=${call.function.arguments}`),
    });

    expect(result.message.tool_calls).toEqual([
      { type: 'function', id: 'call_a', function: { name: 'WriteFile', arguments: argsA } },
      { type: 'function', id: 'call_b', function: { name: 'Shell', arguments: argsB } },
    ]);
    expect(completedAt).toEqual([`call_a=${argsA}`, `call_b=${argsB}`]);
    // Streamed as the server sent them: each header followed by its own fragments.
    expect(raw.map((part) => part.type)).toEqual([
      'function',
      ...pieces(argsA, 5).map(() => 'tool_call_part'),
      'function',
      ...pieces(argsB, 3).map(() => 'tool_call_part'),
    ]);
  });

  it('keeps interleaved calls apart and hands each on only once its arguments are whole', async () => {
    const a = pieces(argsA, 4);
    const b = pieces(argsB, 4);
    const interleaved: Record<string, unknown>[] = [
      toolHeaderChunk(0, 'call_a', 'WriteFile'),
      toolHeaderChunk(1, 'call_b', 'Shell'),
    ];
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (a[i] !== undefined) interleaved.push(toolArgsChunk(0, a[i]!));
      if (b[i] !== undefined) interleaved.push(toolArgsChunk(1, b[i]!));
    }
    server.enqueue(chatStream([...interleaved, textChunk('Both started.')]));
    const seen: ToolCall[] = [];
    const result = await generate(provider(), '', [], history, {
      onToolCall: (call) => seen.push(structuredClone(call)),
    });

    expect(seen.map((call) => [call.id, call.function.arguments])).toEqual([
      ['call_a', argsA],
      ['call_b', argsB],
    ]);
    expect(result.message.tool_calls?.map((call) => JSON.parse(call.function.arguments ?? ''))).toEqual([
      JSON.parse(argsA),
      JSON.parse(argsB),
    ]);
    expect(result.message.content).toEqual([{ type: 'text', text: 'Both started.' }]);
  });

  it('tells calls apart by id when a server numbers them all 0, and makes up missing ids', async () => {
    server.enqueue(
      chatStream([
        toolHeaderChunk(0, 'call_x', 'Read', '{"n":'),
        toolArgsChunk(0, '1}'),
        toolHeaderChunk(0, 'call_y', 'Read', '{"n":2}'),
        deltaChunk({ tool_calls: [{ index: 1, function: { name: 'Read', arguments: '{"n":3}' } }] }),
      ]),
    );
    const { message: answer } = await run(provider());
    const calls = answer.tool_calls ?? [];
    expect(calls.map((call) => call.function.arguments)).toEqual(['{"n":1}', '{"n":2}', '{"n":3}']);
    expect(calls.slice(0, 2).map((call) => call.id)).toEqual(['call_x', 'call_y']);
    expect(calls[2]?.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sends tools and a history with tool calls, results, reasoning and media', async () => {
    server.enqueue(chatStream([textChunk('ok')]));
    const tools: Tool[] = [
      { name: 'Shell', description: 'Run a command.', parameters: { type: 'object', properties: {} } },
    ];
    const past: Message[] = [
      message('user', [
        { type: 'text', text: 'look' },
        { type: 'image_url', image_url: { url: 'https://x/a.png', id: null } },
        { type: 'audio_url', audio_url: { url: 'data:audio/mpeg;base64,AAAA' } },
      ]),
      {
        role: 'assistant',
        content: [
          { type: 'think', think: 'plan' },
          { type: 'text', text: '' },
        ],
        tool_calls: [
          { type: 'function', id: 'c1', function: { name: 'Shell', arguments: '{"command":"ls"}' } },
        ],
      },
      { role: 'tool', content: [{ type: 'text', text: 'a.txt' }], tool_call_id: 'c1' },
      {
        role: 'assistant',
        content: [
          { type: 'think', think: '' },
          { type: 'text', text: 'Listed.' },
        ],
      },
    ];
    await run(provider().withGenerationOptions({ temperature: 0.2, topP: 0.9, maxTokens: 512 }), past, tools);

    const body = lastBody();
    expect(body.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'Shell',
          description: 'Run a command.',
          parameters: { type: 'object', properties: {} },
        },
      },
    ]);
    expect(body).toMatchObject({ temperature: 0.2, top_p: 0.9, max_tokens: 512 });
    expect(body.messages).toEqual([
      { role: 'system', content: 'You are a test.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image_url', image_url: { url: 'https://x/a.png' } },
          { type: 'input_audio', input_audio: { data: 'AAAA', format: 'mp3' } },
        ],
      },
      {
        role: 'assistant',
        content: '',
        reasoning_content: 'plan',
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'Shell', arguments: '{"command":"ls"}' } },
        ],
      },
      { role: 'tool', content: 'a.txt', tool_call_id: 'c1' },
      { role: 'assistant', content: 'Listed.' },
    ]);
  });

  it('maps thinking effort to reasoning_effort and leaves it out when off', async () => {
    server.enqueue(chatStream([textChunk('a')]), chatStream([textChunk('b')]));
    const high = provider().withThinking('high');
    expect(high.thinkingEffort).toBe('high');
    await run(high);
    expect(lastBody().reasoning_effort).toBe('high');
    await run(high.withThinking('off'));
    expect(lastBody()).not.toHaveProperty('reasoning_effort');
  });
});
