import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LoopbackServer } from '../../../../test/support/loopback-server.js';
import { APIConnectionError, APIStatusError, APITimeoutError, ChatProviderError } from '../../errors.js';
import { generate } from '../../generate.js';
import type { Message, StreamedPart } from '../../message.js';
import type { Tool } from '../../tool.js';
import { createChatProvider } from '../index.js';
import type { ProviderOptions } from '../options.js';
import { GeminiProvider } from './gemini-provider.js';
import { geminiError, geminiStream, modelChunk } from './test-support/gemini-sse.js';

const API_KEY = 'gm-test-secret-123';
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

function gemini(extra: Partial<ProviderOptions> = {}): GeminiProvider {
  return new GeminiProvider({ model: 'gemini-test', baseUrl: server.url, apiKey: API_KEY, ...extra });
}

const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });
const body = (i = 0) => server.requests[i]?.body as Record<string, unknown>;
const GLOB: Tool = {
  name: 'Glob',
  description: 'Find files.',
  parameters: { type: 'object', properties: { pattern: { type: 'string' } }, required: ['pattern'] },
};

describe('GeminiProvider', () => {
  it('streams thinking and text, reports id and usage, and sends model, system, tools and headers', async () => {
    server.enqueue(
      geminiStream([
        modelChunk([{ text: 'Let me ', thought: true }]),
        modelChunk([{ text: 'think.', thought: true, thoughtSignature: 'sig-t' }, { text: 'Hel' }]),
        modelChunk([{ text: 'lo.' }], {
          usageMetadata: {
            promptTokenCount: 120,
            cachedContentTokenCount: 100,
            candidatesTokenCount: 7,
            thoughtsTokenCount: 5,
          },
        }),
      ]),
    );
    const parts: StreamedPart[] = [];
    const result = await generate(
      gemini({ thinkingEffort: 'high', customHeaders: { 'X-Team': 'core' } }),
      'You help.',
      [GLOB],
      [user('hi')],
      { onMessagePart: (part) => parts.push(part) },
    );
    expect(result.message.content).toEqual([
      { type: 'think', think: 'Let me think.', encrypted: 'sig-t' },
      { type: 'text', text: 'Hello.' },
    ]);
    expect(result.id).toBe('resp-1');
    expect(result.usage).toEqual({
      input_other: 20,
      input_cache_read: 100,
      input_cache_creation: 0,
      output: 12,
    });
    const request = server.requests[0]!;
    expect(request.path).toBe('/v1beta/models/gemini-test:streamGenerateContent?alt=sse');
    expect(request.headers['x-goog-api-key']).toBe(API_KEY);
    expect(request.headers['x-team']).toBe('core');
    expect(body()).toMatchObject({
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      systemInstruction: { parts: [{ text: 'You help.' }] },
      tools: [
        {
          functionDeclarations: [
            { name: 'Glob', description: 'Find files.', parametersJsonSchema: GLOB.parameters },
          ],
        },
      ],
      generationConfig: { thinkingConfig: { thinkingBudget: 24_576, includeThoughts: true } },
    });
  });

  it('turns function calls into tool calls with their signatures, and sends them back with the results', async () => {
    server.enqueue(
      geminiStream([
        modelChunk([
          { functionCall: { name: 'Glob', args: { pattern: '*.ts' } }, thoughtSignature: 'sig-call' },
          { functionCall: { id: 'own-id', name: 'Glob', args: { pattern: '*.md' } } },
        ]),
      ]),
      geminiStream([modelChunk([{ text: 'Found them.' }])]),
    );
    const first = await generate(gemini(), '', [GLOB], [user('find')]);
    const calls = first.message.tool_calls ?? [];
    expect(calls).toEqual([
      {
        type: 'function',
        id: 'resp-1-call-1',
        function: { name: 'Glob', arguments: '{"pattern":"*.ts"}' },
        extras: { thought_signature: 'sig-call' },
      },
      { type: 'function', id: 'own-id', function: { name: 'Glob', arguments: '{"pattern":"*.md"}' } },
    ]);

    const history: Message[] = [
      user('find'),
      { role: 'assistant', content: [{ type: 'think', think: 'unsigned, dropped' }], tool_calls: calls },
      { role: 'tool', tool_call_id: 'resp-1-call-1', content: [{ type: 'text', text: 'a.ts' }] },
      { role: 'tool', tool_call_id: 'own-id', content: [{ type: 'text', text: 'README.md' }] },
      { role: 'system', content: [{ type: 'text', text: 'Plan mode is off.' }] },
    ];
    await generate(gemini(), '', [GLOB], history);
    expect(body(1).contents).toEqual([
      { role: 'user', parts: [{ text: 'find' }] },
      {
        role: 'model',
        parts: [
          {
            functionCall: { id: 'resp-1-call-1', name: 'Glob', args: { pattern: '*.ts' } },
            thoughtSignature: 'sig-call',
          },
          { functionCall: { id: 'own-id', name: 'Glob', args: { pattern: '*.md' } } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { id: 'resp-1-call-1', name: 'Glob', response: { output: 'a.ts' } } },
          { functionResponse: { id: 'own-id', name: 'Glob', response: { output: 'README.md' } } },
          { text: '<system>Plan mode is off.</system>' },
        ],
      },
    ]);
  });

  it('sends no thinking config by default, a zero budget for off, and images inline', async () => {
    server.enqueue(geminiStream([modelChunk([{ text: 'a' }])]), geminiStream([modelChunk([{ text: 'b' }])]));
    const withImage: Message = {
      role: 'user',
      content: [
        { type: 'text', text: 'look' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBOR' } },
      ],
    };
    await generate(gemini(), '', [], [withImage]);
    await generate(gemini().withThinking('off'), '', [], [user('x')]);
    expect(body(0).generationConfig ?? {}).toEqual({});
    expect(body(0).contents).toEqual([
      { role: 'user', parts: [{ text: 'look' }, { inlineData: { mimeType: 'image/png', data: 'iVBOR' } }] },
    ]);
    expect(body(1).generationConfig).toEqual({ thinkingConfig: { thinkingBudget: 0 } });
  });

  it('maps HTTP errors to status errors, keeping the key out of the message', async () => {
    server.enqueue(
      geminiError(401, `API key ${API_KEY} not valid`),
      geminiError(429, 'Resource exhausted'),
      geminiError(500, 'Internal error'),
    );
    for (const status of [401, 429, 500]) {
      const error = await generate(gemini(), '', [], [user('x')]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(APIStatusError);
      expect((error as APIStatusError).statusCode).toBe(status);
      expect((error as Error).message).not.toContain(API_KEY);
    }
  });

  it('reports a dropped stream as a connection error and a silent one as a timeout', async () => {
    server.enqueue(
      geminiStream([modelChunk([{ text: 'partial' }])], 'drop'),
      geminiStream([modelChunk([{ text: 'then silence' }])], 'hold'),
    );
    const dropped = await generate(gemini(), '', [], [user('x')]).catch((e: unknown) => e);
    expect(dropped).toBeInstanceOf(APIConnectionError);
    const silent = await generate(gemini({ timeoutMs: 200 }), '', [], [user('x')]).catch((e: unknown) => e);
    expect(silent).toBeInstanceOf(APITimeoutError);
  });

  it('stops on abort with an abort, not a provider error', async () => {
    server.enqueue(geminiStream([modelChunk([{ text: 'started' }])], 'hold'));
    const controller = new AbortController();
    const pending = generate(gemini(), '', [], [user('x')], {
      onMessagePart: () => controller.abort(),
      signal: controller.signal,
    }).catch((e: unknown) => e);
    const error = (await pending) as Error;
    expect(error.name).toBe('AbortError');
  });

  it('talks to Vertex AI: with an API key in express mode, else a clear error without Google credentials', async () => {
    server.enqueue(geminiStream([modelChunk([{ text: 'From Vertex.' }])]));
    const express = await createChatProvider({
      type: 'vertexai',
      model: 'gemini-test',
      baseUrl: server.url,
      apiKey: 'vx-key',
    });
    expect(express.name).toBe('vertexai');
    const result = await generate(express, '', [], [user('hi')]);
    expect(result.message.content).toEqual([{ type: 'text', text: 'From Vertex.' }]);
    expect(server.requests[0]?.path).toBe(
      '/v1beta1/publishers/google/models/gemini-test:streamGenerateContent?alt=sse',
    );
    expect(server.requests[0]?.headers['x-goog-api-key']).toBe('vx-key');

    const saved = process.env.GOOGLE_APPLICATION_CREDENTIALS;
    process.env.GOOGLE_APPLICATION_CREDENTIALS = '/nonexistent/credentials.json';
    try {
      const adc = await createChatProvider({
        type: 'vertexai',
        model: 'gemini-test',
        baseUrl: server.url,
        vertex: { project: 'my-project', location: 'us-central1' },
      });
      const error = await generate(adc, '', [], [user('hi')]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ChatProviderError);
      expect((error as Error).message).toContain('credential');
      expect(server.requests).toHaveLength(1);
    } finally {
      if (saved === undefined) delete process.env.GOOGLE_APPLICATION_CREDENTIALS;
      else process.env.GOOGLE_APPLICATION_CREDENTIALS = saved;
    }
  });

  it('is built by createChatProvider for the gemini and google_genai types', async () => {
    for (const type of ['gemini', 'google_genai']) {
      const provider = await createChatProvider({ type, model: 'm', baseUrl: server.url, apiKey: 'k' });
      expect(provider).toBeInstanceOf(GeminiProvider);
      expect(provider.name).toBe('gemini');
    }
  });
});

describe('GeminiProvider whole-call parts', () => {
  it('hands a function call on as soon as its part arrives, while the stream is open', async () => {
    server.enqueue(
      geminiStream([modelChunk([{ functionCall: { name: 'Glob', args: { pattern: '*.ts' } } }])], 'hold'),
    );
    const controller = new AbortController();
    const names: string[] = [];
    const done = generate(gemini(), '', [GLOB], [user('find')], {
      signal: controller.signal,
      onToolCall: (call) => {
        names.push(`${call.function.name} ${call.function.arguments}`);
        controller.abort();
      },
    });
    await expect(done).rejects.toMatchObject({ name: 'AbortError' });
    expect(names).toEqual(['Glob {"pattern":"*.ts"}']);
  });
});
