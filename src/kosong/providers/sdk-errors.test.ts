import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { APIConnectionError, APIStatusError, APITimeoutError, ChatProviderError } from '../errors.js';
import { mapOpenAIError } from './sdk-errors.js';

const KEY = 'sk-secret-key-123456';

describe('mapOpenAIError', () => {
  it('maps the SDK error classes onto the typed errors', () => {
    expect(mapOpenAIError(new OpenAI.APIConnectionTimeoutError())).toBeInstanceOf(APITimeoutError);
    expect(mapOpenAIError(new OpenAI.APIConnectionError({ message: 'Connection error.' }))).toBeInstanceOf(
      APIConnectionError,
    );
    const headers = new Headers({ 'x-request-id': 'req-1', 'retry-after-ms': '250' });
    const status = mapOpenAIError(OpenAI.APIError.generate(503, { message: 'busy' }, undefined, headers));
    expect(status).toBeInstanceOf(APIStatusError);
    expect(status).toMatchObject({ statusCode: 503, requestId: 'req-1', retryAfterMs: 250 });
  });

  it('reports a body that broke off as a connection error and a bad event as a provider error', () => {
    const terminated = new TypeError('terminated', { cause: new Error('other side closed') });
    expect(mapOpenAIError(terminated)).toBeInstanceOf(APIConnectionError);
    const malformed = mapOpenAIError(new SyntaxError('Unexpected token'));
    expect(malformed).toBeInstanceOf(ChatProviderError);
    expect(malformed).not.toBeInstanceOf(APIConnectionError);
  });

  it('keeps aborts as aborts, preferring the reason of the signal', () => {
    expect(mapOpenAIError(new OpenAI.APIUserAbortError()).name).toBe('AbortError');
    const controller = new AbortController();
    controller.abort();
    expect(mapOpenAIError(new OpenAI.APIConnectionError({}), { signal: controller.signal })).toBe(
      controller.signal.reason,
    );
  });

  it('never lets the API key through', () => {
    const echoed = OpenAI.APIError.generate(
      401,
      { message: `Incorrect API key: ${KEY}` },
      undefined,
      new Headers(),
    );
    expect(mapOpenAIError(echoed, { apiKey: KEY }).message).not.toContain(KEY);
    const odd = mapOpenAIError(new Error(`weird ${KEY}`), { apiKey: KEY });
    expect(odd).toBeInstanceOf(ChatProviderError);
    expect(odd.message).not.toContain(KEY);
  });
});
