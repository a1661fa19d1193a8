import { describe, expect, it } from 'vitest';
import { MIN_SECRET_LENGTH, REDACTED, SecretRegistry } from './secrets.js';

describe('SecretRegistry', () => {
  const key = 'sk-live-0123456789abcdef';

  it('redacts every occurrence, longest value first', () => {
    const secrets = new SecretRegistry();
    secrets.add(key, 'providers.kimi.api_key');
    secrets.add(`${key}-extended`, 'env OTHER');
    expect(secrets.redact(`a ${key} b ${key}-extended c`)).toBe(`a ${REDACTED} b ${REDACTED} c`);
  });

  it('ignores short and blank values, and trims', () => {
    const secrets = new SecretRegistry();
    secrets.add('x'.repeat(MIN_SECRET_LENGTH - 1), 'short');
    secrets.add('   ', 'blank');
    secrets.add(undefined, 'missing');
    expect(secrets.size).toBe(0);
    secrets.add(`  ${key}\n`, 'padded');
    expect(secrets.redact(`key=${key};`)).toBe(`key=${REDACTED};`);
  });

  it('finds a secret and names its source, never its value', () => {
    const secrets = new SecretRegistry();
    secrets.add(key, 'env KIMI_API_KEY');
    expect(secrets.findInValue({ command: `curl -H "x: ${key}" example.com` })).toEqual({
      source: 'env KIMI_API_KEY',
    });
    expect(secrets.findInValue({ command: 'ls' })).toBeNull();
  });

  it('matches a value with JSON-escaped characters inside serialised text', () => {
    const secrets = new SecretRegistry();
    const quoted = 'pa"ss\\word-12345';
    secrets.add(quoted, 'mcp x env.PASSWORD');
    const line = JSON.stringify({ output: `got ${quoted}` });
    expect(secrets.redact(line)).not.toContain('word-12345');
    expect(JSON.parse(secrets.redact(line))).toEqual({ output: `got ${REDACTED}` });
  });

  it('redacts deeply and keeps untouched objects as they are', () => {
    const secrets = new SecretRegistry();
    secrets.add(key, 'k');
    const clean = { a: ['x', { b: 'y' }] };
    expect(secrets.redactDeep(clean)).toBe(clean);
    expect(secrets.redactDeep({ a: ['x', { b: `${key}!` }], n: 3 })).toEqual({
      a: ['x', { b: `${REDACTED}!` }],
      n: 3,
    });
  });

  it('drops secret variables and variables holding a secret from a child environment', () => {
    const secrets = new SecretRegistry();
    secrets.add(key, 'providers.kimi.api_key');
    const env = {
      PATH: '/usr/bin',
      KIMI_API_KEY: 'anything-at-all',
      MY_COPY: `prefix ${key}`,
      HOME: '/home/u',
      UNSET: undefined,
    };
    expect(secrets.childEnvironment(env)).toEqual({ PATH: '/usr/bin', HOME: '/home/u' });
    expect(secrets.childEnvironment(env, new Set(['MY_COPY']))).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/u',
      MY_COPY: `prefix ${key}`,
    });
  });
});
