import { describe, expect, it } from 'vitest';
import { generate } from '../generate.js';
import { createChatProvider } from './index.js';

describe('createChatProvider', () => {
  it.each([
    ['kimi', 'kimi'],
    ['openai_legacy', 'openai_legacy'],
    ['openai_responses', 'openai_responses'],
    ['anthropic', 'anthropic'],
    ['scripted', 'scripted'],
    ['_scripted_echo', 'scripted'],
    ['echo', 'echo'],
    ['_chaos', 'chaos'],
  ])('builds %s', async (type, name) => {
    const provider = await createChatProvider({
      type,
      model: 'm',
      apiKey: 'k',
      baseUrl: 'http://127.0.0.1:9',
      chaos: { rates: {} },
    });
    expect(provider.name).toBe(name);
  });

  it('lets an OpenAI-compatible local server go without an API key', async () => {
    const provider = await createChatProvider({
      type: 'openai_legacy',
      model: 'llama',
      baseUrl: 'http://127.0.0.1:9',
    });
    expect(provider.modelName).toBe('llama');
  });

  it('plays scripts given in the spec', async () => {
    const provider = await createChatProvider({ type: 'scripted', model: '', scripts: ['text: hello'] });
    const result = await generate(provider, '', [], []);
    expect(result.message.content).toEqual([{ type: 'text', text: 'hello' }]);
  });

  it('names the known types for an unknown one', async () => {
    await expect(createChatProvider({ type: 'gpt', model: 'm' })).rejects.toThrow(
      /Unknown provider type `gpt`.*kimi, openai_legacy/,
    );
  });
});
