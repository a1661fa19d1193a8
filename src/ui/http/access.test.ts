import { chmod, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import {
  AccessSetupError,
  accessPolicy,
  assertSafeBind,
  checkAccess,
  isPrivateAddress,
  loadOrCreateToken,
  tokensEqual,
} from './access.js';

const TOKEN = 'A'.repeat(43);
const loopback = accessPolicy({ bindHost: '127.0.0.1', port: 5494, token: TOKEN, lanOnly: true });
const good = { host: '127.0.0.1:5494', authorization: `Bearer ${TOKEN}`, remoteAddress: '127.0.0.1' };

describe('checkAccess', () => {
  test.each([
    ['the token, own host', good, 'ok'],
    ['localhost names the same server', { ...good, host: 'LOCALHOST:5494' }, 'ok'],
    ['[::1] too', { ...good, host: '[::1]:5494' }, 'ok'],
    ['its own origin', { ...good, origin: 'http://127.0.0.1:5494' }, 'ok'],
    ['no token', { ...good, authorization: undefined }, 'unauthorized'],
    ['a wrong token', { ...good, authorization: `Bearer ${TOKEN}x` }, 'unauthorized'],
    ['a token prefix', { ...good, authorization: `Bearer ${TOKEN.slice(0, 10)}` }, 'unauthorized'],
    ['Basic instead of Bearer', { ...good, authorization: `Basic ${TOKEN}` }, 'unauthorized'],
    [
      'the token as a subprotocol',
      { ...good, authorization: undefined, subprotocols: ['kimi-wire', `bearer.${TOKEN}`] },
      'ok',
    ],
    ['a rebound host name', { ...good, host: 'evil.example:5494' }, 'bad_host'],
    ['no Host at all', { ...good, host: undefined }, 'bad_host'],
    ['another port', { ...good, host: '127.0.0.1:80' }, 'bad_host'],
    ['a foreign origin', { ...good, origin: 'http://evil.example' }, 'bad_origin'],
    ['the null origin (sandboxed frame, file://)', { ...good, origin: 'null' }, 'bad_origin'],
    ['a look-alike origin', { ...good, origin: 'http://127.0.0.1:5494.evil.example' }, 'bad_origin'],
    ['a public peer under --lan-only', { ...good, remoteAddress: '8.8.8.8' }, 'forbidden_address'],
  ] as const)('%s', (_name, facts, expected) => {
    const decision = checkAccess(loopback, facts);
    expect(decision.ok ? 'ok' : decision.code).toBe(expected);
  });

  test('--allowed-origins adds origins; --public lets any peer in; no token only when omitted', () => {
    const policy = accessPolicy({
      bindHost: '127.0.0.1',
      port: 5494,
      token: null,
      lanOnly: false,
      extraOrigins: ['http://localhost:5173/'],
    });
    expect(
      checkAccess(policy, {
        host: '127.0.0.1:5494',
        origin: 'http://localhost:5173',
        remoteAddress: '8.8.8.8',
      }).ok,
    ).toBe(true);
  });

  test('a specific LAN bind answers to that address only', () => {
    const policy = accessPolicy({ bindHost: '192.168.1.20', port: 5494, token: TOKEN, lanOnly: true });
    expect(checkAccess(policy, { ...good, host: '192.168.1.20:5494', remoteAddress: '192.168.1.7' }).ok).toBe(
      true,
    );
    expect(checkAccess(policy, { ...good, host: 'localhost:5494' }).ok).toBe(false);
  });
});

test('tokensEqual compares whole tokens', () => {
  expect(tokensEqual(TOKEN, TOKEN)).toBe(true);
  expect(tokensEqual(null, TOKEN)).toBe(false);
  expect(tokensEqual('', TOKEN)).toBe(false);
  expect(tokensEqual(`${TOKEN} `, TOKEN)).toBe(false);
});

test.each([
  ['127.0.0.1', true],
  ['10.1.2.3', true],
  ['172.16.0.1', true],
  ['172.32.0.1', false],
  ['192.168.0.5', true],
  ['::ffff:192.168.0.5', true],
  ['::1', true],
  ['fd00::1', true],
  ['8.8.8.8', false],
  ['2001:db8::1', false],
  ['not-an-address', false],
])('isPrivateAddress(%s) is %s', (address, expected) => {
  expect(isPrivateAddress(address)).toBe(expected);
});

describe('assertSafeBind', () => {
  test('no token on a network address refuses; a malformed token refuses anywhere', () => {
    expect(() => assertSafeBind({ bindHost: '0.0.0.0', token: null, omitAuth: false })).toThrow(
      AccessSetupError,
    );
    expect(() => assertSafeBind({ bindHost: '127.0.0.1', token: '', omitAuth: false })).toThrow(
      AccessSetupError,
    );
    expect(() =>
      assertSafeBind({ bindHost: '127.0.0.1', token: 'has space in it 123456', omitAuth: false }),
    ).toThrow();
    expect(() => assertSafeBind({ bindHost: '0.0.0.0', token: TOKEN, omitAuth: false })).not.toThrow();
    expect(() => assertSafeBind({ bindHost: '0.0.0.0', token: null, omitAuth: true })).not.toThrow();
  });
});

describe('loadOrCreateToken', () => {
  let dir: string;
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('creates a 0600 token, reuses it, and replaces one others can read or a symlink', async () => {
    dir = await mkdtemp(join(tmpdir(), 'kimi-ts-token-'));
    const path = join(dir, 'http', 'token');
    const first = await loadOrCreateToken(path);
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await loadOrCreateToken(path)).toBe(first);

    await writeFile(path, `${'B'.repeat(43)}\n`, { mode: 0o644 });
    await chmod(path, 0o644);
    const replaced = await loadOrCreateToken(path);
    expect(replaced).not.toBe('B'.repeat(43));
    expect((await stat(path)).mode & 0o777).toBe(0o600);

    const elsewhere = join(dir, 'planted');
    await writeFile(elsewhere, `${'C'.repeat(43)}\n`, { mode: 0o600 });
    await rm(path);
    await symlink(elsewhere, path);
    const fresh = await loadOrCreateToken(path);
    expect(fresh).not.toBe('C'.repeat(43));
    // The symlink was replaced, never written through.
    expect(await readFile(elsewhere, 'utf8')).toBe(`${'C'.repeat(43)}\n`);
  });
});
