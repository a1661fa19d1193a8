import { describe, expect, it } from 'vitest';
import type { Message } from '../../message.js';
import { buildRequestBody, DEFAULT_MAX_TOKENS, thinkingConfig } from './request-body.js';

describe('thinkingConfig', () => {
  it.each([
    [null, DEFAULT_MAX_TOKENS, null],
    ['off', DEFAULT_MAX_TOKENS, { type: 'disabled' }],
    ['low', DEFAULT_MAX_TOKENS, { type: 'enabled', budget_tokens: 2_048 }],
    ['medium', DEFAULT_MAX_TOKENS, { type: 'enabled', budget_tokens: 8_192 }],
    ['high', DEFAULT_MAX_TOKENS, { type: 'enabled', budget_tokens: 16_384 }],
    ['xhigh', DEFAULT_MAX_TOKENS, { type: 'enabled', budget_tokens: 32_768 }],
    ['max', DEFAULT_MAX_TOKENS, { type: 'enabled', budget_tokens: 40_960 }],
    // squeezed under a small max_tokens, keeping room for the answer
    ['high', 10_000, { type: 'enabled', budget_tokens: 8_976 }],
    // no budget of at least 1,024 fits: thinking is left out
    ['high', 2_000, null],
  ] as const)('%s with max_tokens %d → %j', (effort, maxTokens, expected) => {
    expect(thinkingConfig(effort, maxTokens)).toEqual(expected);
  });
});

describe('buildRequestBody', () => {
  it('leaves out what is not set and never marks a trailing thinking block for caching', () => {
    const history: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'q' }] },
      { role: 'assistant', content: [{ type: 'think', think: 't', encrypted: 's' }] },
    ];
    const body = buildRequestBody({ model: 'm' }, '', [], history);
    expect(body).toEqual({
      model: 'm',
      max_tokens: DEFAULT_MAX_TOKENS,
      stream: true,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'q' }] },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 't', signature: 's' }] },
      ],
    });
  });

  it('sends top_p and temperature only when configured', () => {
    const body = buildRequestBody({ model: 'm', temperature: 0, topP: 0.9 }, 's', [], []);
    expect(body.temperature).toBe(0);
    expect(body.top_p).toBe(0.9);
  });
});
