import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bytesSecretContentReason, fileSecretContentReason, secretContentReason } from './secret-content.js';

/** Files the table cannot read as they are (issue #24, red3): decoded, or counted as unscanned. */

const TOKEN = `ghp_${'a1B2'.repeat(9)}`;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kimi-ts-scan-enc-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function scanned(name: string, content: Buffer | string): Promise<string | null> {
  const path = join(dir, name);
  await writeFile(path, content);
  return fileSecretContentReason(path);
}

it.each([
  ['UTF-16LE with a BOM', Buffer.from(`\ufeffpush with ${TOKEN}\n`, 'utf16le')],
  ['UTF-16LE without a BOM', Buffer.from(`push with ${TOKEN}\n`, 'utf16le')],
  ['UTF-16BE with a BOM', Buffer.from(`\ufeffpush with ${TOKEN}\n`, 'utf16le').swap16()],
])('reads a token in %s', async (_what, bytes) => {
  expect(await scanned('utf16.txt', bytes)).toBe('holds a GitHub token');
  expect(bytesSecretContentReason(bytes)).toBe('holds a GitHub token');
});

it('leaves a clean UTF-16 file clean, and binary NULs alone', async () => {
  expect(await scanned('clean16.txt', Buffer.from('\ufeffhello world\n', 'utf16le'))).toBeNull();
  const binary = Buffer.alloc(4096);
  for (let i = 0; i < binary.length; i += 7) binary[i] = 65;
  expect(await scanned('binary.bin', binary)).toBeNull();
});

it('counts compressed files and archives as unscanned, whatever they hold', async () => {
  expect(await scanned('notes.gz', gzipSync('nothing here\n'))).toBe(
    'is gzip-compressed, whose content is not scanned for secrets',
  );
  const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(40)]);
  expect(await scanned('a.zip', zip)).toBe('is a zip archive, whose content is not scanned for secrets');
  const tar = Buffer.alloc(1024);
  tar.write('.env', 0, 'latin1');
  tar.write('ustar', 257, 'latin1');
  expect(await scanned('a.tar', tar)).toBe('is a tar archive, whose content is not scanned for secrets');
});

it('counts a file over 64 MiB as unscanned, not clean', async () => {
  const path = join(dir, 'big.log');
  await writeFile(path, 'log line\n');
  await truncate(path, 64 * 1024 * 1024 + 1);
  expect(await fileSecretContentReason(path)).toBe('is larger than the 64 MiB scanned for secrets');
  await truncate(path, 64 * 1024 * 1024);
  expect(await fileSecretContentReason(path)).toBeNull();
});

it('finds a JWT of any length across a chunk boundary', async () => {
  const jwt = `eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJ${'a'.repeat(6000)}.${'s'.repeat(43)}`;
  const start = 1024 * 1024 - 4096 - 100;
  const pad = Buffer.alloc(start, 'x');
  pad[start - 1] = 10;
  expect(await scanned('session.log', Buffer.concat([pad, Buffer.from(`${jwt} end\n`)]))).toBe(
    'holds a JSON Web Token',
  );
  // A run of token characters longer than a chunk (no blank at all) is read whole too.
  const long = `eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJ${'b'.repeat(3 * 1024 * 1024)}.${'s'.repeat(43)}`;
  expect(await scanned('one-line.log', `x ${long}`)).toBe('holds a JSON Web Token');
});

it('knows a Kubernetes Secret manifest by its kind and data, YAML or JSON', () => {
  const yaml = 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: deploy\ndata:\n  token: Z2hwX2FiYw==\n';
  expect(secretContentReason(yaml)).toBe('holds a Kubernetes Secret');
  expect(secretContentReason('{\n  "kind": "Secret",\n  "data": {"t": "eA=="}\n}')).toBe(
    'holds a Kubernetes Secret',
  );
  // A ConfigMap, or a Secret named in prose, is not.
  expect(secretContentReason(yaml.replace('kind: Secret', 'kind: ConfigMap'))).toBeNull();
  expect(secretContentReason('kind: SecretStore\nspec:\n')).toBeNull();
  expect(secretContentReason('A Secret has data: values in base64.')).toBeNull();
});
