import { describe, expect, it } from 'vitest';
import { redactSecretContent, secretContentReason } from './secret-content.js';
import { tokenSpans } from './token-redaction.js';

// Placeholders that stand for a credential in docs, comments and examples are no credential: the
// table (secret-content-rules.ts) passes them over, for every scan that uses it (files, the
// workspace's token copies, tool output, environment variables, git's store).

/** UTF-8 text as the file scans read it (Latin-1: `…` is three characters). */
const asRead = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

describe('placeholders are no credential', () => {
  it.each([
    'redis://[user:password@]host[:port][/db]',
    'clone `scheme://user:password@host/repo`',
    'see https://user:pass@host for the shape',
    'postgres://username:password@localhost:5432/app',
    'postgres://app:pw@db/app',
    'https://me:<token>@github.com/o/r.git',
    'https://me:[password]@host/x',
    'https://me:{pw}@host/x',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell variable in a URL, as written in docs
    'https://me:${TOKEN}@host/x',
    'https://me:xxxxxxxx@host/x',
    'https://me:***@host/x',
    'https://me:...@host/x',
    'https://me:…@host/x',
    asRead('https://me:…@host/x'),
    'https://me:my-example-pw@host/x',
    '//registry.npmjs.org/:_authToken=…',
    asRead('//registry.npmjs.org/:_authToken=…'),
    '//registry.npmjs.org/:_authToken=...',
    '//registry.npmjs.org/:_authToken=<your-token>',
    '//registry.npmjs.org/:_authToken=xxxxxxxxxxxx',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the text `${NPM_TOKEN}`, as an .npmrc holds it
    '//registry.npmjs.org/:_authToken="${NPM_TOKEN}"',
    '//registry.npmjs.org/:_authToken=example-token-value',
    // Shorter than any credential.
    '//r/:_authToken=x',
    'Authorization: Bearer <token>',
    'Authorization: Bearer xxxxxxxxxxxxxxxx',
    'Authorization: Bearer ...',
    'Authorization: Bearer my-example-token-value',
    '-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----',
    '-----BEGIN PRIVATE KEY-----\\n…\\n-----END PRIVATE KEY-----',
    '-----BEGIN OPENSSH PRIVATE KEY----- <your key> -----END OPENSSH PRIVATE KEY-----',
  ])('%s', (text) => {
    expect(secretContentReason(text)).toBeNull();
    expect(tokenSpans(text)).toEqual([]);
    expect(redactSecretContent(text, '[X]')).toBe(text);
  });

  it.each([
    ['https://alice:hunter2@host/x', 'holds a URL with a password'],
    ['https://user:s3cr3t-value@host/x', 'holds a URL with a password'],
    ['https://me:password1@host/x', 'holds a URL with a password'],
    ['postgres://app:pw-for-real@db/app', 'holds a URL with a password'],
    ['//r/:_authToken=npm-real-value-123', 'holds a registry auth token'],
    ['_password=cGFzc3dvcmQ=', 'holds a registry auth token'],
    ['Authorization: Bearer abcdefgh12345678', 'holds an HTTP authorization header'],
    ['-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA', 'holds a private key'],
    ['-----BEGIN EC PRIVATE KEY-----', 'holds a private key'],
  ])('a real value beside them still counts: %s', (text, reason) => {
    expect(secretContentReason(text)).toBe(reason);
    expect(redactSecretContent(text, '[X]')).not.toBe(text);
  });
});
