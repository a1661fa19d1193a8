import { execFileSync } from 'node:child_process';
import { link, mkdir, mkdtemp, realpath, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SandboxSecretFiles } from './sandbox-secret-files.js';
import { otherNameSecretReason, walksSettled } from './secret-other-names.js';
import { SecretFilesWalk, walkSecretFiles } from './workspace-secret-walk.js';

let root: string;
let outside: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'kimi-ts-other-names-')));
  outside = await realpath(await mkdtemp(join(tmpdir(), 'kimi-ts-other-names-out-')));
});

afterEach(async () => {
  // The findings of a root that is gone are replaced by an empty walk's (a root of its own per test).
  await rm(root, { recursive: true, force: true });
  await mkdir(root);
  await walkSecretFiles(root);
  await rm(root, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

async function put(files: Record<string, string>, base = root): Promise<void> {
  for (const [name, content] of Object.entries(files)) {
    await mkdir(dirname(join(base, name)), { recursive: true });
    await writeFile(join(base, name), content);
  }
}

const relative = (files: readonly string[]) => files.map((file) => file.slice(root.length + 1)).sort();

describe('the secret walk: a secret file under another name', () => {
  it('hides the target of a secret-named symlink, and the file tools know it', async () => {
    await put({ 'config/prod-values': 'DB_PASSWORD=x\n', 'config/other': 'x' });
    await symlink('config/prod-values', join(root, '.env'));
    expect(relative((await walkSecretFiles(root)).files)).toEqual(['config/prod-values']);
    expect(otherNameSecretReason(join(root, 'config', 'prod-values'))).toBe(
      'reached by the symlink .env (a dotenv file)',
    );
    expect(otherNameSecretReason(join(root, 'config', 'other'))).toBeNull();
  });

  it('hides the target of a plain-named symlink whose way passes a secret name (outside the root)', async () => {
    await put({ values: 'DB_PASSWORD=x\n' }, outside);
    await symlink(join(outside, 'values'), join(outside, '.env'));
    await symlink(join(outside, '.env'), join(root, 'settings'));
    expect((await walkSecretFiles(root)).files).toEqual([join(outside, 'values')]);
  });

  it('does not hide a system file a secret-named symlink leads to (every command would break)', async () => {
    await symlink('/etc/passwd', join(root, '.env'));
    expect((await walkSecretFiles(root)).files).toEqual([]);
  });

  it('hides every other name of a secret file (hard links, in any folder, a skipped one too)', async () => {
    await put({ '.env': 'DB_PASSWORD=x\n', 'plain.txt': 'x' });
    await mkdir(join(root, 'backup', 'old'), { recursive: true });
    await mkdir(join(root, 'node_modules', 'pkg'), { recursive: true });
    await link(join(root, '.env'), join(root, 'backup', 'old', 'env-copy'));
    await link(join(root, '.env'), join(root, 'node_modules', 'pkg', 'settings'));
    expect(relative((await walkSecretFiles(root)).files)).toEqual([
      '.env',
      'backup/old/env-copy',
      'node_modules/pkg/settings',
    ]);
    expect(otherNameSecretReason(join(root, 'backup', 'old', 'env-copy'))).toBe(
      'a hard link of .env, a secret file',
    );
    expect(otherNameSecretReason(join(root, 'plain.txt'))).toBeNull();
  });

  it('finds a link made later in a folder that did not change, and forgets one removed', async () => {
    await put({ 'docs/readme.md': 'x', 'docs/keep.txt': 'DB_PASSWORD=x\n' });
    const walk = new SecretFilesWalk(root);
    expect(relative((await walk.read()).files)).toEqual([]);
    // `docs` keeps its listing: the file already there becomes a name of a secret file.
    await link(join(root, 'docs', 'keep.txt'), join(root, 'prod.env'));
    expect(relative((await walk.read()).files)).toEqual(['docs/keep.txt', 'prod.env']);
    await unlink(join(root, 'prod.env'));
    expect(relative((await walk.read()).files)).toEqual([]);
    expect(otherNameSecretReason(join(root, 'docs', 'keep.txt'))).toBeNull();
  });

  it('hides an archive holding a secret file, not one holding none', async () => {
    await put({ 'old/.env': 'DB_PASSWORD=x\n', 'old/notes.txt': 'x' }, outside);
    execFileSync('tar', ['czf', join(root, 'backup.tar.gz'), '-C', join(outside, 'old'), '.env']);
    execFileSync('tar', ['czf', join(root, 'docs.tgz'), '-C', join(outside, 'old'), 'notes.txt']);
    expect(relative((await walkSecretFiles(root)).files)).toEqual(['backup.tar.gz']);
    expect(otherNameSecretReason(join(root, 'backup.tar.gz'))).toBe(
      'an archive that holds .env, a dotenv file',
    );
  });

  it("the file tools' check waits for a reading under way", async () => {
    await put({ 'config/prod-values': 'DB_PASSWORD=x\n' });
    await symlink('config/prod-values', join(root, '.env'));
    const secrets = new SandboxSecretFiles(join(outside, 'cache'));
    secrets.refresh([root]);
    const walking = walksSettled();
    expect(walking).not.toBeNull();
    await walking;
    expect(otherNameSecretReason(join(root, 'config', 'prod-values'))).not.toBeNull();
    expect(walksSettled()).toBeNull();
  });
});
