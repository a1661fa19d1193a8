import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseModelsList, removeManagedConfig, writeManagedConfig } from './managed-config.js';
import { needsRefresh } from './oauth-token-source.js';
import { credentialsFile, readTokens, writeTokens } from './token-store.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kimi-ts-auth-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const tokens = (expiresAt: number, expiresIn: number) => ({
  access_token: 'a',
  refresh_token: 'r',
  expires_at: expiresAt,
  expires_in: expiresIn,
  scope: '',
  token_type: 'Bearer',
});

describe('OAuth tokens', () => {
  it.each([
    ['an hour left of an hour', 3600, 3600, false],
    ['29 minutes left of an hour (under half)', 1740, 3600, true],
    ['4 minutes left of 5 (under the 300 s floor)', 240, 300, true],
    ['no expiry known', null, 0, false],
  ])('refreshes when %s: %s', (_name, left, lifetime, expected) => {
    const now = 1_000_000;
    expect(needsRefresh(tokens(left === null ? 0 : now + left, lifetime), now)).toBe(expected);
  });

  it('stores tokens for the user alone, under a name the key cannot escape', async () => {
    const file = credentialsFile(dir, 'oauth/../../kimi-code');
    expect(file).toBe(join(dir, 'credentials', 'kimi-code.json'));
    await writeTokens(file, tokens(5, 5));
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, 'credentials'))).mode & 0o777).toBe(0o700);
    expect(await readTokens(file)).toEqual(tokens(5, 5));
  });
});

describe('the managed provider in the config', () => {
  it('is added beside the user’s own tables and removed again', async () => {
    const file = join(dir, 'config.toml');
    await writeFile(
      file,
      'default_model = "mine"\n[providers.own]\ntype = "kimi"\n[models.mine]\nprovider = "own"\nmodel = "m"\nmax_context_size = 10\n',
    );
    const models = parseModelsList({ data: [{ id: 'k2', context_length: 1000, supports_reasoning: true }] });
    expect(models).toEqual([{ id: 'k2', contextLength: 1000, capabilities: ['thinking'] }]);
    expect(await writeManagedConfig(file, 'https://api.test/v1', models ?? [])).toBe('mine');
    const written = await readFile(file, 'utf8');
    expect(written).toContain('[providers."managed:kimi-code"]');
    expect(written).toContain('[models."kimi-code/k2"]');
    expect(await removeManagedConfig(file)).toBe(true);
    const after = await readFile(file, 'utf8');
    expect(after).not.toContain('managed:kimi-code');
    expect(after).toContain('default_model = "mine"');
    expect(await removeManagedConfig(file)).toBe(false);
  });
});
