import { appendFile, mkdtemp, rename, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileSecretContentReason, secretContentReason } from './secret-content.js';

const b64 = 'QUJD'.repeat(30);

describe('secretContentReason', () => {
  it.each([
    [`token = "ghp_${'a1B2'.repeat(9)}"`, 'holds a GitHub token'],
    [`gho_${'Z'.repeat(36)}`, 'holds a GitHub token'],
    [`GH=github_pat_${'A'.repeat(30)}`, 'holds a GitHub token'],
    [`OPENAI_API_KEY=sk-${'x'.repeat(40)}`, 'holds an API key (sk-…)'],
    [`sk-ant-api03-${'y'.repeat(60)}`, 'holds an Anthropic API key'],
    ['AWS_ACCESS_KEY_ID=AKIA2E0A8F3B244C9986', 'holds an AWS access key'],
    // AWS's documented examples are no secret; a key that only ends in EXAMPLE-like text is.
    ['aws_access_key_id = AKIAIOSFODNN7EXAMPLE', null],
    ['aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', null],
    ['AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLX', 'holds an AWS access key'],
    ['aws_secret_access_key = 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', 'holds an AWS secret access key'],
    ['SLACK=xoxb-1234567890-abcdefghij', 'holds a Slack token'],
    [`npm_${'A1b2C3d4E5'.repeat(3)}abcdef`, 'holds an npm token'],
    ['//registry.npmjs.org/:_authToken=abc123def', 'holds a registry auth token'],
    ['glpat-abcdefghij1234567890', 'holds a GitLab token'],
    [`-----BEGIN OPENSSH PRIVATE KEY-----\n${b64}\n-----END OPENSSH PRIVATE KEY-----`, 'holds a private key'],
    ['-----BEGIN EC PRIVATE KEY-----', 'holds a private key'],
    ['[remote "origin"]\n\turl = https://me:s3cret@github.com/o/r.git', 'holds a URL with a password'],
    ['\textraheader = AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46Z2hz', 'holds an HTTP authorization header'],
    // The patterns that ignore case find the same in any case (each rule's hints are looked for so too).
    ['Authorization: Bearer eC1hY2Nlc3MtdG9rZW46Z2hz', 'holds an HTTP authorization header'],
    ['HTTPS://ME:S3CRET@GITHUB.COM/o/r.git', 'holds a URL with a password'],
    // Formats a red team found missing (gitleaks knows them).
    ['aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY', 'holds an AWS secret access key'],
    ['"SecretAccessKey": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY"', 'holds an AWS secret access key'],
    ['client_secret: GOCSPX-abcdefghijklmnopqrstuvwx12', 'holds a Google OAuth client secret'],
    [`password = pypi-AgEIcHlwaS5vcmcCJGE0ZjY0NjA0LTY2ZDQtNDQ1My1iZDZl`, 'holds a PyPI token'],
    ['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', 'holds a SendGrid key'],
    [`dop_v1_${'a1'.repeat(32)}`, 'holds a DigitalOcean token'],
    ['AGE-SECRET-KEY-1QQPQZL2YSK9RXFQQ2Z3VSUCKAW3JN8RJJZ9QQZX8ZZ8TQQPQZL2YSK9RX', 'holds an age secret key'],
    [
      'DefaultEndpointsProtocol=https;AccountName=a;AccountKey=Zm9vYmFyYmF6cXV4Zm9vYmFy==;',
      'holds an Azure storage key',
    ],
    [`shpat_${'0123456789abcdef'.repeat(2)}`, 'holds a Shopify token'],
    ['bot_token: 123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw', 'holds a Telegram bot token'],
    [
      'CI_JOB_JWT=eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJwcm9qZWN0X3BhdGg6Z3JvdXAvYXBwIn0.c2lnbmF0dXJlLXZhbHVl',
      'holds a JSON Web Token',
    ],
    ['https://hooks.slack.com/services/T0123ABCD/B0123ABCD/abcdefghijklmnopqrstuvwx', 'holds a webhook URL'],
    [
      'https://discord.com/api/webhooks/123456789012345678/abcdefghijklmnopqrstuvwxyz0123',
      'holds a webhook URL',
    ],
    [`lin_api_${'a1B2c3D4e5'.repeat(4)}`, 'holds a Linear API key'],
    [`PMAK-${'a1'.repeat(12)}-${'b2'.repeat(17)}`, 'holds a Postman API key'],
    [`dapi${'0a'.repeat(16)}`, 'holds a Databricks token'],
  ])('%s', (text, reason) => {
    expect(secretContentReason(text)).toBe(reason);
  });

  it.each([
    'hello world',
    '[remote "origin"]\n\turl = https://github.com/o/r.git',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell variable in a URL, as written in config files
    'url = https://user:${TOKEN}@host/x',
    'task-list and sk-short',
    '-----BEGIN PUBLIC KEY-----',
    'registry=https://registry.npmjs.org/',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell variable, as written in config files
    'aws_secret_access_key = ${AWS_SECRET_ACCESS_KEY}',
    'see https://hooks.slack.com/services/ for how to make one',
    'time 12:30:45 and ratio 3:A',
    'eyJ is how base64 JSON starts',
  ])('no secret in %s', (text) => {
    expect(secretContentReason(text)).toBeNull();
  });

  it('reads files, not FIFOs or folders', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'secret-content-'));
    try {
      await writeFile(join(dir, 'notes.txt'), `key: ghp_${'q'.repeat(36)}\n`);
      expect(await fileSecretContentReason(join(dir, 'notes.txt'))).toBe('holds a GitHub token');
      expect(await fileSecretContentReason(dir)).toBeNull();
      expect(await fileSecretContentReason(join(dir, 'missing'))).toBeNull();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  // Scans are remembered by the file's identity; a clock a minute ahead makes every file settled.
  const later = () => Date.now() + 60_000;

  it('scans a remembered file again when it changes: its size, a new inode, its times', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'secret-content-'));
    try {
      const file = join(dir, 'notes.txt');
      const clean = `key: ${'q'.repeat(40)}\n`;
      const secret = `key: ghp_${'q'.repeat(36)}\n`;
      expect(secret.length).toBe(clean.length);
      await writeFile(file, clean);
      expect(await fileSecretContentReason(file, later)).toBeNull();
      expect(await fileSecretContentReason(file, later)).toBeNull();
      // Grown.
      await appendFile(file, secret);
      expect(await fileSecretContentReason(file, later)).toBe('holds a GitHub token');
      // Swapped for another file of the same size.
      await writeFile(file, clean);
      expect(await fileSecretContentReason(file, later)).toBeNull();
      await writeFile(join(dir, 'swap'), secret);
      await rename(join(dir, 'swap'), file);
      expect(await fileSecretContentReason(file, later)).toBe('holds a GitHub token');
      // Rewritten in place, same size, its modification time set back to what it was.
      await writeFile(file, clean);
      const old = new Date(2020, 0, 1);
      await utimes(file, old, old);
      expect(await fileSecretContentReason(file, later)).toBeNull();
      await writeFile(file, secret);
      await utimes(file, old, old);
      expect(await fileSecretContentReason(file, later)).toBe('holds a GitHub token');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
