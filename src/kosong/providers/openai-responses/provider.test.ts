import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LoopbackServer } from '../../../../test/support/loopback-server.js';
import { generate } from '../../generate.js';
import { type Message, message, type StreamedPart, type ToolCall } from '../../message.js';
import type { Tool } from '../../tool.js';
import type { ProviderOptions } from '../options.js';
import { OpenAIResponsesProvider } from './provider.js';
import { chunk, ev, responsesStream, writeResponsesEvents } from './test-support/responses-sse.js';

const API_KEY = 'sk-test-secret-key-1234';
const readTool: Tool = {
  name: 'ReadFile',
  description: 'Reads a file.',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};

let server: LoopbackServer;
beforeEach(async () => {
  server = await LoopbackServer.start();
});
afterEach(async () => {
  await server.close();
});

function provider(extra: Partial<ProviderOptions> = {}): OpenAIResponsesProvider {
  return new OpenAIResponsesProvider({
    model: 'gpt-test',
    baseUrl: `${server.url}/v1`,
    apiKey: API_KEY,
    ...extra,
  });
}

async function run(
  p: OpenAIResponsesProvider,
  history: Message[] = [message('user', 'hi')],
  tools: Tool[] = [],
) {
  const parts: StreamedPart[] = [];
  const calls: ToolCall[] = [];
  const result = await generate(p, 'You are a test.', tools, history, {
    onMessagePart: (part) => parts.push(part),
    onToolCall: (call) => calls.push(structuredClone(call)),
  });
  return { ...result, parts, calls };
}

function requestBody(index = 0): Record<string, unknown> {
  return server.requests[index]?.body as Record<string, unknown>;
}

describe('OpenAIResponsesProvider streaming', () => {
  it('streams text, reports id and usage, and sends a stateless request', async () => {
    server.enqueue(
      responsesStream([
        ev.created('resp_text'),
        ev.messageAdded(0),
        ev.textDelta(0, 'Hel'),
        ev.textDelta(0, 'lo'),
        ev.textDelta(0, '!'),
        ev.messageDone(0, 'Hello!'),
        ev.completed({ input_tokens: 120, output_tokens: 7, cached: 100 }, 'resp_text'),
      ]),
    );
    const p = provider({ customHeaders: { 'X-Custom': 'yes' }, maxTokens: 256, temperature: 0.2, topP: 0.9 });
    const result = await run(p, [message('user', 'hi')], [readTool]);

    expect(result.parts).toEqual([
      { type: 'text', text: 'Hel' },
      { type: 'text', text: 'lo' },
      { type: 'text', text: '!' },
    ]);
    expect(result.message).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Hello!' }] });
    expect(result.id).toBe('resp_text');
    expect(result.usage).toEqual({
      input_other: 20,
      input_cache_read: 100,
      input_cache_creation: 0,
      output: 7,
    });

    const req = server.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v1/responses');
    expect(req.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(req.headers['x-custom']).toBe('yes');
    expect(req.body).toEqual({
      model: 'gpt-test',
      instructions: 'You are a test.',
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }],
      tools: [
        {
          type: 'function',
          name: 'ReadFile',
          description: 'Reads a file.',
          parameters: readTool.parameters,
          strict: false,
        },
      ],
      stream: true,
      store: false,
      max_output_tokens: 256,
      temperature: 0.2,
      top_p: 0.9,
    });
  });

  it('streams a reasoning summary sealed by encrypted reasoning, and hands it back next call', async () => {
    server.enqueue(
      responsesStream([
        ev.created(),
        ev.reasoningAdded(0),
        ev.summaryPartAdded(0, 0),
        ev.summaryDelta(0, 0, 'Look at '),
        ev.summaryDelta(0, 0, 'the file.'),
        ev.summaryPartAdded(0, 1),
        ev.summaryDelta(0, 1, 'Then answer.'),
        ev.reasoningDone(0, ['Look at the file.', 'Then answer.'], 'gAAAA-encrypted'),
        ev.messageAdded(1),
        ev.textDelta(1, 'Done.'),
        ev.messageDone(1, 'Done.'),
        ev.completed(),
      ]),
    );
    const p = provider().withThinking('high');
    expect(p.thinkingEffort).toBe('high');
    const first = await run(p);

    expect(first.parts).toEqual([
      { type: 'think', think: 'Look at ' },
      { type: 'think', think: 'the file.' },
      { type: 'think', think: '\n\nThen answer.' },
      { type: 'think', think: '', encrypted: 'gAAAA-encrypted' },
      { type: 'text', text: 'Done.' },
    ]);
    expect(first.message.content).toEqual([
      { type: 'think', think: 'Look at the file.\n\nThen answer.', encrypted: 'gAAAA-encrypted' },
      { type: 'text', text: 'Done.' },
    ]);
    expect(requestBody(0)).toMatchObject({
      reasoning: { effort: 'high', summary: 'auto' },
      include: ['reasoning.encrypted_content'],
    });

    server.enqueue(responsesStream([ev.created('resp_2'), ev.textDelta(0, 'ok'), ev.completed()]));
    await run(p, [message('user', 'hi'), first.message, message('user', 'again')]);
    expect(requestBody(1).input).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] },
      {
        type: 'reasoning',
        summary: [{ type: 'summary_text', text: 'Look at the file.\n\nThen answer.' }],
        encrypted_content: 'gAAAA-encrypted',
      },
      {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Done.', annotations: [] }],
      },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'again' }] },
    ]);
  });

  it('attaches each parallel call its own argument deltas, split over many chunks', async () => {
    const argsA = '{"path":"src/a-long-file-name.ts","line_offset":1}';
    const argsB = '{"path":"README.md"}';
    server.enqueue(
      responsesStream([
        ev.created(),
        ev.callAdded(0, 'call_a', 'ReadFile'),
        ...chunk(argsA, 3).map((delta) => ev.argsDelta(0, delta)),
        ev.argsDone(0, argsA),
        ev.callDone(0, 'call_a', 'ReadFile', argsA),
        ev.callAdded(1, 'call_b', 'ReadFile'),
        ...chunk(argsB, 2).map((delta) => ev.argsDelta(1, delta)),
        ev.argsDone(1, argsB),
        ev.callDone(1, 'call_b', 'ReadFile', argsB),
        ev.completed(),
      ]),
    );
    const result = await run(provider(), [message('user', 'read both')], [readTool]);

    const expected = [
      { type: 'function', id: 'call_a', function: { name: 'ReadFile', arguments: argsA } },
      { type: 'function', id: 'call_b', function: { name: 'ReadFile', arguments: argsB } },
    ];
    expect(result.message.tool_calls).toEqual(expected);
    expect(result.calls).toEqual(expected);
    expect(result.parts[0]).toEqual({
      type: 'function',
      id: 'call_a',
      function: { name: 'ReadFile', arguments: null },
    });
    expect(result.parts.filter((part) => part.type === 'tool_call_part')).toHaveLength(
      chunk(argsA, 3).length + chunk(argsB, 2).length,
    );
  });

  it('sends a whole conversation as Responses input items', async () => {
    server.enqueue(responsesStream([ev.created(), ev.textDelta(0, 'fine'), ev.completed()]));
    const history: Message[] = [
      message('system', 'Extra rule.'),
      message('user', [
        { type: 'text', text: 'What is in this picture?' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
      ]),
      message(
        'assistant',
        [
          { type: 'think', think: 'no signature' },
          { type: 'text', text: 'Let me look.' },
        ],
        {
          tool_calls: [
            { type: 'function', id: 'call_1', function: { name: 'ReadFile', arguments: '{"path":"a"}' } },
            { type: 'function', id: 'call_2', function: { name: 'ReadFile', arguments: null } },
          ],
        },
      ),
      message('tool', 'file a', { tool_call_id: 'call_1' }),
      message(
        'tool',
        [
          { type: 'text', text: 'image:' },
          { type: 'image_url', image_url: { url: 'https://x/i.png' } },
        ],
        {
          tool_call_id: 'call_2',
        },
      ),
    ];
    await run(provider({ thinkingEffort: 'off', sessionId: 'session-42' }), history);

    const body = requestBody();
    expect(body).not.toHaveProperty('reasoning');
    expect(body).not.toHaveProperty('include');
    expect(body).not.toHaveProperty('tools');
    expect(body.prompt_cache_key).toBe('session-42');
    expect(body.input).toEqual([
      { type: 'message', role: 'system', content: [{ type: 'input_text', text: 'Extra rule.' }] },
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: 'What is in this picture?' },
          { type: 'input_image', image_url: 'data:image/png;base64,AAAA', detail: 'auto' },
        ],
      },
      {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Let me look.', annotations: [] }],
      },
      { type: 'function_call', call_id: 'call_1', name: 'ReadFile', arguments: '{"path":"a"}' },
      { type: 'function_call', call_id: 'call_2', name: 'ReadFile', arguments: '{}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'file a' },
      {
        type: 'function_call_output',
        call_id: 'call_2',
        output: [
          { type: 'input_text', text: 'image:' },
          { type: 'input_image', image_url: 'https://x/i.png', detail: 'auto' },
        ],
      },
    ]);
  });

  it('withThinking returns a copy and leaves the original alone', () => {
    const original = provider({ thinkingEffort: 'low' });
    const copy = original.withThinking('off');
    expect(copy).not.toBe(original);
    expect(copy.thinkingEffort).toBe('off');
    expect(original.thinkingEffort).toBe('low');
    expect(copy.modelName).toBe('gpt-test');
    expect(copy.name).toBe('openai_responses');
  });

  it('keeps working after onRetryableError rebuilds the client', async () => {
    const p = provider();
    expect(await p.onRetryableError(new Error('reset'))).toBe(true);
    server.enqueue(responsesStream([ev.created(), ev.textDelta(0, 'again'), ev.completed()]));
    expect((await run(p)).message.content).toEqual([{ type: 'text', text: 'again' }]);
  });
});

describe('OpenAIResponsesProvider tool calls complete before the response does', () => {
  it('hands each call on at its output_item.done, while the response is still open', async () => {
    server.enqueue((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': 'req_early' });
      writeResponsesEvents(res, [
        ev.created(),
        ev.callAdded(0, 'call_1', 'ReadFile'),
        ev.argsDelta(0, '{"pa'),
        ev.argsDelta(0, 'th":"a"}'),
        ev.argsDone(0, '{"path":"a"}'),
        ev.callDone(0, 'call_1', 'ReadFile', '{"path":"a"}'),
      ]);
      // No response.completed: the stream stays open until the client goes away.
    });
    const controller = new AbortController();
    const calls: ToolCall[] = [];
    const done = generate(provider(), 'sys', [readTool], [message('user', 'go')], {
      signal: controller.signal,
      onToolCall: (call) => {
        calls.push(structuredClone(call));
        controller.abort();
      },
    });
    await expect(done).rejects.toMatchObject({ name: 'AbortError' });
    expect(calls.map((c) => [c.id, c.function.arguments])).toEqual([['call_1', '{"path":"a"}']]);
  });
});
