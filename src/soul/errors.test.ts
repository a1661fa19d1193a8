import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APIEmptyResponseError,
  APIStatusError,
  APITimeoutError,
} from '../kosong/errors.js';
import {
  attachTurnContext,
  classifyApiError,
  describeTurnError,
  exitCodeFor,
  isRetryableError,
} from './errors.js';

const status = (code: number, message = 'x') => new APIStatusError(message, code);

describe('isRetryableError', () => {
  it.each<[string, unknown, boolean]>([
    ['429', status(429), true],
    ['500', status(500), true],
    ['502', status(502), true],
    ['503', status(503), true],
    ['504', status(504), true],
    ['400', status(400), false],
    ['401', status(401), false],
    ['404', status(404), false],
    ['501', status(501), false],
    ['529', status(529), false],
    ['connection', new APIConnectionError('x'), true],
    ['timeout', new APITimeoutError('x'), true],
    ['empty', new APIEmptyResponseError('x'), true],
    ['plain error', new Error('x'), false],
  ])('%s → %s', (_name, error, expected) => {
    expect(isRetryableError(error)).toBe(expected);
  });
});

describe('classifyApiError', () => {
  it.each<[unknown, string, number | null]>([
    [status(429), 'rate_limit', 429],
    [status(401), 'auth', 401],
    [status(403), 'auth', 403],
    [status(529), 'overloaded', 529],
    [status(503), '5xx_server', 503],
    [status(400, 'This model maximum context length is 8192 tokens'), 'context_overflow', 400],
    [status(400, 'bad request'), '4xx_client', 400],
    [new APIConnectionError('x'), 'network', null],
    [new APITimeoutError('x'), 'timeout', null],
    [new APIEmptyResponseError('x'), 'empty_response', null],
    [new Error('x'), 'other', null],
  ])('%s', (error, errorType, statusCode) => {
    expect(classifyApiError(error)).toEqual({ errorType, statusCode });
  });
});

describe('exit codes and turn context', () => {
  it.each<[unknown, number]>([
    [status(429), 75],
    [status(503), 75],
    [new APIConnectionError('x'), 75],
    [new APIEmptyResponseError('x'), 75],
    [status(401), 1],
    [status(400), 1],
    [new Error('x'), 1],
  ])('%s exits %i', (error, code) => {
    expect(exitCodeFor(error)).toBe(code);
  });

  it('describes an error with the model, duration and context it ended a turn with', () => {
    const error = status(500, 'server exploded');
    attachTurnContext(error, { model: 'kimi-k2', durationMs: 1500, contextTokens: 1234 });
    expect(describeTurnError(error)).toBe(
      'server exploded (model kimi-k2, step ran 1.5 s, context 1234 tokens)',
    );
    expect(error).toBeInstanceOf(APIStatusError);
  });
});
