import { describe, expect, it } from 'vitest';
import { chatChunkSchema, plainChatChunk } from './chat-chunk.js';

const call = { index: 0, id: 'c1', type: 'function', function: { name: 'Shell', arguments: '{"a":1}' } };
const usage = { prompt_tokens: 10, completion_tokens: 2, prompt_tokens_details: { cached_tokens: 4 } };

/** Shapes a server may send: well formed ones, and ones off in one field each. */
const samples: [string, unknown][] = [
  [
    'a text delta',
    { id: 'x', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: 'hi' } }] },
  ],
  ['a tool call delta', { choices: [{ index: 0, delta: { tool_calls: [call] }, finish_reason: null }] }],
  ['nulls everywhere', { id: null, choices: null, usage: null }],
  ['an empty object', {}],
  ['usage at the end', { choices: [], usage }],
  [
    'usage in the choice (Kimi)',
    { choices: [{ index: 0, delta: {}, usage: { ...usage, cached_tokens: 3 } }] },
  ],
  ['reasoning in a loose delta', { choices: [{ delta: { reasoning_content: 'hm', extra: [1] } }] }],
  ['JSON null', null],
  ['an array', [{ choices: [] }]],
  ['a string', 'data'],
  ['id a number', { id: 7 }],
  ['choices an object', { choices: { 0: {} } }],
  ['a choice null', { choices: [null] }],
  ['index a string', { choices: [{ index: '0' }] }],
  ['delta an array', { choices: [{ delta: [] }] }],
  ['content a number', { choices: [{ delta: { content: 1 } }] }],
  ['tool_calls an object', { choices: [{ delta: { tool_calls: call } }] }],
  ['a call index not an integer', { choices: [{ delta: { tool_calls: [{ ...call, index: 0.5 }] } }] }],
  ['a call index past 2^53', { choices: [{ delta: { tool_calls: [{ ...call, index: 2 ** 60 }] } }] }],
  ['a call name a number', { choices: [{ delta: { tool_calls: [{ ...call, function: { name: 1 } }] } }] }],
  [
    'arguments an object',
    { choices: [{ delta: { tool_calls: [{ ...call, function: { arguments: {} } }] } }] },
  ],
  ['function a string', { choices: [{ delta: { tool_calls: [{ ...call, function: 'f' }] } }] }],
  ['finish_reason a boolean', { choices: [{ finish_reason: true }] }],
  ['usage a string', { usage: '10' }],
  ['tokens a string', { usage: { prompt_tokens: '10' } }],
  ['cached tokens details an array', { usage: { prompt_tokens_details: [] } }],
  ['choice usage off', { choices: [{ usage: { completion_tokens: null, cached_tokens: 'x' } }] }],
];

describe('plainChatChunk', () => {
  it.each(samples)('%s: accepted only where the schema accepts it, and read the same', (_name, raw) => {
    const plain = plainChatChunk(raw);
    const parsed = chatChunkSchema().safeParse(raw);
    if (plain === null) return;
    expect(parsed.success).toBe(true);
    // What the schema keeps is what the chunk as it came holds in those fields.
    expect(plain).toMatchObject(parsed.data as object);
  });

  it('takes the well formed samples itself (the schema is the fallback, not the rule)', () => {
    for (const [name, raw] of samples.slice(0, 7)) expect(plainChatChunk(raw), name).not.toBeNull();
  });

  it('leaves every malformed sample to the schema, which refuses it', () => {
    for (const [name, raw] of samples.slice(7)) {
      expect(plainChatChunk(raw), name).toBeNull();
      expect(chatChunkSchema().safeParse(raw).success, name).toBe(false);
    }
  });

  it('refuses a class instance a reviver could make, leaving it to the schema', () => {
    class Chunk {
      id = 'x';
    }
    expect(plainChatChunk(new Chunk())).toBeNull();
  });
});
