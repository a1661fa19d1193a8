import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LoopbackServer } from '../../../../test/support/loopback-server.js';
import { APIStatusError } from '../../errors.js';
import { generate } from '../../generate.js';
import { type Message, message } from '../../message.js';
import type { Tool } from '../../tool.js';
import { KimiProvider } from './kimi-provider.js';
import {
  chatStream,
  deltaChunk,
  finishChunk,
  textChunk,
  toolArgsChunk,
  toolHeaderChunk,
} from './test-support/chat-sse.js';

const API_KEY = 'sk-kimi-secret-abcdef';
const history: Message[] = [message('user', 'hi')];

let server: LoopbackServer;
beforeEach(async () => {
  server = await LoopbackServer.start();
});
afterEach(async () => {
  await server.close();
});

function kimi(extra: Partial<ConstructorParameters<typeof KimiProvider>[0]> = {}): KimiProvider {
  return new KimiProvider({ model: 'kimi-k2', baseUrl: `${server.url}/v1`, apiKey: API_KEY, ...extra });
}

function bodyOf(index: number): Record<string, unknown> {
  const body = server.requests[index]?.body;
  if (typeof body !== 'object' || body === null) throw new Error(`no JSON body for request ${index}`);
  return body as Record<string, unknown>;
}

describe('KimiProvider', () => {
  it('switches thinking with the thinking field and never sends reasoning_effort', async () => {
    for (let i = 0; i < 3; i++) server.enqueue(chatStream([textChunk('ok')]));
    const base = kimi();
    await generate(base, '', [], history);
    await generate(base.withThinking('high'), '', [], history);
    await generate(base.withThinking('off'), '', [], history);

    expect(bodyOf(0)).not.toHaveProperty('thinking');
    expect(bodyOf(1).thinking).toEqual({ type: 'enabled' });
    expect(bodyOf(2).thinking).toEqual({ type: 'disabled' });
    for (let i = 0; i < 3; i++) expect(bodyOf(i)).not.toHaveProperty('reasoning_effort');
    expect(base.thinkingEffort).toBeNull();
  });

  it('uploads a video through the files API and names it ms://<id>; a refusal is a typed error', async () => {
    server.enqueue(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: 'file-vid-42',
            object: 'file',
            bytes: 4,
            created_at: 1,
            filename: 'clip.mp4',
            purpose: 'video',
          }),
        );
      },
      (_req, res) => {
        res.writeHead(413, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'file too large', type: 'invalid_request_error' } }));
      },
    );
    const video = { data: new Uint8Array([1, 2, 3, 4]), mimeType: 'video/mp4', filename: 'clip.mp4' };
    expect(await kimi().uploadVideo(video)).toBe('ms://file-vid-42');
    const upload = server.requests[0]!;
    expect([upload.method, upload.path]).toEqual(['POST', '/v1/files']);
    expect(upload.headers['content-type']).toMatch(/^multipart\/form-data/);
    expect(upload.rawBody).toMatch(/name="purpose"\r\n\r\nvideo\r\n/);
    expect(upload.rawBody).toContain('filename="clip.mp4"');
    const refused = await kimi()
      .uploadVideo(video)
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(APIStatusError);
    expect((refused as APIStatusError).statusCode).toBe(413);
  });

  it('sends thinking.keep (KIMI_MODEL_THINKING_KEEP) only while thinking is on', async () => {
    for (let i = 0; i < 3; i++) server.enqueue(chatStream([textChunk('ok')]));
    const base = kimi({ thinkingKeep: 'all' });
    await generate(base, '', [], history);
    await generate(base.withThinking('high'), '', [], history);
    await generate(base.withThinking('off'), '', [], history);
    expect(bodyOf(0)).not.toHaveProperty('thinking');
    expect(bodyOf(1).thinking).toEqual({ type: 'enabled', keep: 'all' });
    expect(bodyOf(2).thinking).toEqual({ type: 'disabled' });
  });

  it('streams reasoning_content as thinking and reports usage from the last choice with cached_tokens', async () => {
    server.enqueue(
      chatStream([
        deltaChunk({ role: 'assistant', reasoning_content: 'Hmm' }),
        deltaChunk({ reasoning_content: ', fine.' }),
        textChunk('Answer'),
        {
          ...finishChunk(),
          choices: [
            {
              index: 0,
              delta: {},
              finish_reason: 'stop',
              usage: { prompt_tokens: 50, completion_tokens: 9, total_tokens: 59, cached_tokens: 32 },
            },
          ],
        },
      ]),
    );
    const result = await generate(kimi().withThinking('high'), '', [], history);
    expect(result.message.content).toEqual([
      { type: 'think', think: 'Hmm, fine.' },
      { type: 'text', text: 'Answer' },
    ]);
    expect(result.usage).toEqual({
      input_other: 18,
      input_cache_read: 32,
      input_cache_creation: 0,
      output: 9,
    });
  });

  it('round-trips reasoning_content (empty kept) and omits empty content next to tool calls', async () => {
    server.enqueue(chatStream([textChunk('ok')]));
    const past: Message[] = [
      message('user', 'list files'),
      {
        role: 'assistant',
        content: [{ type: 'think', think: '' }],
        tool_calls: [
          { type: 'function', id: 'Shell:0', function: { name: 'Shell', arguments: '{"command":"ls"}' } },
        ],
      },
      { role: 'tool', content: [{ type: 'text', text: 'a.txt' }], tool_call_id: 'Shell:0' },
      {
        role: 'assistant',
        content: [
          { type: 'think', think: 'One file.' },
          { type: 'text', text: 'There is a.txt.' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'No reasoning here.' }] },
    ];
    await generate(kimi(), 'sys', [], past);
    expect(bodyOf(0).messages).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'list files' },
      {
        role: 'assistant',
        reasoning_content: '',
        tool_calls: [
          { id: 'Shell:0', type: 'function', function: { name: 'Shell', arguments: '{"command":"ls"}' } },
        ],
      },
      { role: 'tool', content: 'a.txt', tool_call_id: 'Shell:0' },
      { role: 'assistant', content: 'There is a.txt.', reasoning_content: 'One file.' },
      { role: 'assistant', content: 'No reasoning here.' },
    ]);
  });

  it('sends prompt_cache_key, max_completion_tokens, custom headers and patched tool schemas', async () => {
    server.enqueue(chatStream([textChunk('ok')]));
    const tools: Tool[] = [
      {
        name: 'Typed',
        description: 'has a type',
        parameters: { type: 'object', properties: { a: { type: 'string' } } },
      },
      {
        name: 'Untyped',
        description: 'from an MCP server',
        parameters: { properties: { b: { type: 'number' } } },
      },
      { name: '$web_search', description: 'built in', parameters: {} },
    ];
    const p = kimi({
      sessionId: 'session-7',
      maxTokens: 4096,
      customHeaders: { 'User-Agent': 'KimiTS/0.1' },
    });
    await generate(p, '', tools, history);

    const body = bodyOf(0);
    expect(body).toMatchObject({ prompt_cache_key: 'session-7', max_completion_tokens: 4096 });
    expect(body).not.toHaveProperty('max_tokens');
    expect(body.tools).toEqual([
      {
        type: 'function',
        function: { name: 'Typed', description: 'has a type', parameters: tools[0]!.parameters },
      },
      {
        type: 'function',
        function: {
          name: 'Untyped',
          description: 'from an MCP server',
          parameters: { type: 'object', properties: { b: { type: 'number' } } },
        },
      },
      { type: 'builtin_function', function: { name: '$web_search' } },
    ]);
    expect(tools[1]!.parameters).not.toHaveProperty('type'); // the caller's schema is left alone
    expect(server.requests[0]!.headers['user-agent']).toBe('KimiTS/0.1');
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${API_KEY}`);
  });

  it('streams Kimi tool calls with their ids', async () => {
    server.enqueue(
      chatStream([
        toolHeaderChunk(0, 'ReadFile:0', 'ReadFile'),
        toolArgsChunk(0, '{"path":'),
        toolArgsChunk(0, '"a.txt"}'),
        finishChunk('tool_calls'),
      ]),
    );
    const result = await generate(kimi(), '', [], history);
    expect(result.message.tool_calls).toEqual([
      { type: 'function', id: 'ReadFile:0', function: { name: 'ReadFile', arguments: '{"path":"a.txt"}' } },
    ]);
  });
});
