import { describe, expect, it } from 'vitest';
import { APIStatusError, ChatProviderError } from '../../errors.js';
import { generate } from '../../generate.js';
import { message } from '../../message.js';
import { EchoProvider } from './echo-provider.js';
import { ScriptError } from './scripted-turn.js';

describe('EchoProvider', () => {
  const provider = new EchoProvider();

  it('plays the text of the last user message as a script', async () => {
    const history = [
      message('user', 'text: ignored'),
      message('assistant', 'ignored'),
      message('user', [
        { type: 'text', text: 'id: e-1\ntext: Hi' },
        { type: 'text', text: 'tool_call: id=c1 name=Shell arguments={"command":"ls"}' },
      ]),
    ];
    const result = await generate(provider, '', [], history);
    expect(result.id).toBe('e-1');
    expect(result.message.content).toEqual([{ type: 'text', text: 'Hi' }]);
    expect(result.message.tool_calls).toEqual([
      { type: 'function', id: 'c1', function: { name: 'Shell', arguments: '{"command":"ls"}' } },
    ]);
    expect([provider.name, provider.modelName]).toEqual(['echo', 'echo']);
  });

  it('answers the same script the same way every time', async () => {
    const history = [message('user', 'text: again')];
    for (let i = 0; i < 2; i++) {
      expect((await generate(provider, '', [], history)).message.content).toEqual([
        { type: 'text', text: 'again' },
      ]);
    }
  });

  it('needs a history that ends with a user message', async () => {
    await expect(generate(provider, '', [], [])).rejects.toThrow(/history is empty/);
    const error = await generate(
      provider,
      '',
      [],
      [message('user', 'text: x'), message('assistant', 'y')],
    ).catch((e) => e);
    expect(error).toBeInstanceOf(ChatProviderError);
    expect((error as Error).message).toMatch(/not the assistant/);
  });

  it('raises script errors and scripted failures from generate()', async () => {
    await expect(generate(provider, '', [], [message('user', 'hello there')])).rejects.toBeInstanceOf(
      ScriptError,
    );
    await expect(generate(provider, '', [], [message('user', 'error: 500')])).rejects.toBeInstanceOf(
      APIStatusError,
    );
  });

  it('keeps the thinking effort on its copies', () => {
    expect(provider.withThinking('low').thinkingEffort).toBe('low');
    expect(provider.thinkingEffort).toBeNull();
  });
});
