import { describe, expect, it } from 'vitest';
import { isSensitiveFile } from './sensitive-file.js';

describe('isSensitiveFile', () => {
  it.each([
    ['/p/.env', true],
    ['/p/.env.local', true],
    ['/p/.env.production', true],
    ['.env.example', false],
    ['/p/.env.sample', false],
    ['/p/.env.template', false],
    ['/home/u/.ssh/id_rsa', true],
    ['/home/u/.ssh/id_rsa.pub', false],
    ['id_ed25519', true],
    ['id_ecdsa', true],
    ['/home/u/.aws/credentials', true],
    ['/home/u/.gcp/credentials', true],
    ['C:\\Users\\u\\.aws\\credentials', true],
    ['/p/credentials', true],
    ['/p/credentials.json', false],
    ['/p/environment.ts', false],
    ['/p/my.env', false],
  ])('%s → %s', (path, expected) => {
    expect(isSensitiveFile(path)).toBe(expected);
  });
});
