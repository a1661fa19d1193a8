import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { linkTarget, symlinkSecretNameReason } from './symlink-secret-names.js';

let root: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'kimi-ts-link-names-')));
  await mkdir(join(root, 'config'));
  await writeFile(join(root, 'config', 'prod-values'), 'DB_PASSWORD=x\n');
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('symlinkSecretNameReason', () => {
  it('judges the name a path is given, not only where it leads', async () => {
    await symlink('config/prod-values', join(root, '.env'));
    expect(symlinkSecretNameReason(join(root, '.env'))).toBe('a dotenv file');
  });

  it('judges every symlink on the way of a plain-named one (a -> .env -> config/prod-values)', async () => {
    await symlink('config/prod-values', join(root, '.env'));
    await symlink('.env', join(root, 'a'));
    await symlink('a', join(root, 'b'));
    expect(symlinkSecretNameReason(join(root, 'b'))).toBe('a dotenv file');
  });

  it('resolves a hop with `..` from where the link really is (its folder a symlink itself)', async () => {
    await mkdir(join(root, 'real', 'keys'), { recursive: true });
    await writeFile(join(root, 'real', 'id_ed25519'), 'k');
    await symlink('../id_ed25519', join(root, 'real', 'keys', 'current'));
    await symlink('real/keys', join(root, 'keys'));
    await symlink('keys/current', join(root, 'key-in-use'));
    // Lexically `keys/../id_ed25519` is `<root>/id_ed25519`; either way the name is a key's.
    expect(symlinkSecretNameReason(join(root, 'key-in-use'))).toBe('a private key');
    expect(linkTarget(join(root, 'keys', 'current'))).toBe(join(root, 'real', 'id_ed25519'));
  });

  it('is null for plain names all the way, a file that is no symlink, and a loop', async () => {
    await symlink('config/prod-values', join(root, 'values'));
    await symlink('loop-b', join(root, 'loop-a'));
    await symlink('loop-a', join(root, 'loop-b'));
    expect(symlinkSecretNameReason(join(root, 'values'))).toBeNull();
    expect(symlinkSecretNameReason(join(root, 'config', 'prod-values'))).toBeNull();
    expect(symlinkSecretNameReason(join(root, 'loop-a'))).toBeNull();
    expect(symlinkSecretNameReason(join(root, 'missing'))).toBeNull();
    expect(linkTarget(join(root, 'config', 'prod-values'))).toBeNull();
  });
});
