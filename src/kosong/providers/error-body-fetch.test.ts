import { describe, expect, it } from 'vitest';
import { serverMessage } from './error-body-fetch.js';

describe('serverMessage: the words of an error body the OpenAI SDK would not find', () => {
  it.each([
    ['"Invalid Authentication"', 'Invalid Authentication'],
    ['{"message":"key expired"}', 'key expired'],
    ['{"detail":"Not allowed"}', 'Not allowed'],
    ['{"error":"quota"}', 'quota'],
    // The SDK's own shape, and what is no JSON at all, pass as they are.
    ['{"error":{"message":"bad"}}', null],
    ['plain text', null],
    ['""', null],
    ['[1,2]', null],
    ['{}', null],
  ])('%s → %s', (body, expected) => {
    expect(serverMessage(body)).toBe(expected);
  });
});
