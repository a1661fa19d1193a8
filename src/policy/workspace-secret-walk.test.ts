import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SandboxSecretFiles } from './sandbox-secret-files.js';
import { fileSecretContentReason } from './secret-content.js';
import { SecretFilesWalk, walkSecretFiles } from './workspace-secret-walk.js';

let root: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'kimi-ts-secret-walk-')));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function put(files: Record<string, string>): Promise<void> {
  for (const [name, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, name)), { recursive: true });
    await writeFile(join(root, name), content);
  }
}

const relative = (files: readonly string[]) => files.map((file) => file.slice(root.length + 1)).sort();

const TOKEN = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';

describe('walkSecretFiles', () => {
  it('finds the files secret by name at every depth, not the harmless ones', async () => {
    await put({
      '.env': 'A=1',
      '.env.example': 'A=',
      'a/b/c/prod.env': 'A=1',
      'a/.npmrc': '//r/:_authToken=x',
      'keys/server.pem': 'k',
      'keys/id_ed25519': 'k',
      'keys/id_ed25519.pub': 'k',
      'src/index.ts': '',
      'README.md': '',
    });
    const walk = await walkSecretFiles(root);
    expect(relative(walk.files)).toEqual([
      '.env',
      'a/.npmrc',
      'a/b/c/prod.env',
      'keys/id_ed25519',
      'keys/server.pem',
    ]);
    expect(walk.boundHit).toBeNull();
  });

  // Issue #24 (red4): a symlink named like a secret is not bound over itself, but the file it leads
  // to is what `grep -R` reads through it, and what `grep -r .` reads by its plain name: hidden.
  it('a folder named .env is walked; a symlink named .env is no file to hide, its target is', async () => {
    await put({ 'plain.txt': 'x', 'other.txt': 'x', '.env/inner.txt': 'x', '.env/deeper/.env': 'A=1' });
    await symlink('plain.txt', join(root, 'link.env'));
    expect(relative((await walkSecretFiles(root)).files)).toEqual(['.env/deeper/.env', 'plain.txt']);
  });

  it('skips dependency folders and git internals, but finds a .git/config holding a token', async () => {
    await put({
      'node_modules/pkg/.env': 'A=1',
      'vendor/lib/.env': 'A=1',
      '.venv/lib/.env': 'A=1',
      '.git/config': `[remote "o"]\n\turl = https://x:${TOKEN}@github.com/o/r\n`,
      '.git/hooks/.env': 'A=1',
      'sub/.git/config': '[core]\n\tbare = false\n',
    });
    expect(relative((await walkSecretFiles(root)).files)).toEqual(['.git/config']);
  });

  it('adds the files under the root that a content scan found secret', async () => {
    await put({ 'notes.txt': `push with ${TOKEN}\n`, 'other.txt': 'nothing' });
    expect(relative((await walkSecretFiles(root)).files)).toEqual([]);
    expect(await fileSecretContentReason(join(root, 'notes.txt'))).not.toBeNull();
    expect(await fileSecretContentReason(join(root, 'other.txt'))).toBeNull();
    expect(relative((await walkSecretFiles(root)).files)).toEqual(['notes.txt']);
  });

  it('stops at its bounds and says which; what it found before stays', async () => {
    await put({ '.env': 'A=1', 'a/b/c/d/.env': 'A=1', x1: '', x2: '', x3: '' });
    const deep = await walkSecretFiles(root, { maxDepth: 2, maxEntries: 1000, maxFiles: 10 });
    expect(deep.boundHit).toBe('depth');
    expect(relative(deep.files)).toEqual(['.env']);
    const wide = await walkSecretFiles(root, { maxDepth: 16, maxEntries: 2, maxFiles: 10 });
    expect(wide.boundHit).toBe('entries');
    await put({ 'k/a.pem': '', 'k/b.pem': '', 'k/c.pem': '' });
    const many = await walkSecretFiles(root, { maxDepth: 16, maxEntries: 1000, maxFiles: 2 });
    expect(many.boundHit).toBe('files');
    expect(many.files).toHaveLength(2);
  });
});

describe('SecretFilesWalk', () => {
  it('lists again only the folders that changed: a .env added to a settled folder is found', async () => {
    await put({ 'a/b/notes.txt': '', 'a/c/prod.env': 'A=1' });
    // Read as if long after the files were made: every folder settled, kept for the next reading.
    const walk = new SecretFilesWalk(root, undefined, () => Date.now() + 60_000);
    expect(relative((await walk.read()).files)).toEqual(['a/c/prod.env']);
    await put({ 'a/b/.env': 'A=1' });
    await rm(join(root, 'a/c/prod.env'));
    expect(relative((await walk.read()).files)).toEqual(['a/b/.env']);
    expect(relative((await walk.read()).files)).toEqual(['a/b/.env']);
  });
});

describe('SandboxSecretFiles', () => {
  it('keeps a reading until refreshed: a .env made later is found at the next reading', async () => {
    await put({ '.env': 'A=1' });
    const secrets = new SandboxSecretFiles(join(root, 'cache'));
    expect(relative(await secrets.files([root]))).toEqual(['.env']);
    await put({ 'sub/.env': 'A=1' });
    expect(relative(await secrets.files([root]))).toEqual(['.env']);
    secrets.refresh();
    expect(relative(await secrets.files([root]))).toEqual(['.env', 'sub/.env']);
  });

  it('a file removed since the reading is not handed on (bwrap would make it again)', async () => {
    await put({ '.env': 'A=1', 'b.env': 'B=1' });
    const secrets = new SandboxSecretFiles(join(root, 'cache'));
    expect(relative(await secrets.files([root]))).toEqual(['.env', 'b.env']);
    await rm(join(root, 'b.env'));
    expect(relative(await secrets.files([root]))).toEqual(['.env']);
  });

  it('binds an empty regular file of its cache, made again if someone filled it', async () => {
    const secrets = new SandboxSecretFiles(join(root, 'cache'));
    const source = secrets.bindSource();
    expect(source).toBe(join(root, 'cache', 'sandbox-empty-file'));
    await writeFile(source, 'not empty');
    expect(new SandboxSecretFiles(join(root, 'cache')).bindSource()).toBe(source);
    const { readFile } = await import('node:fs/promises');
    expect(await readFile(source, 'utf8')).toBe('');
  });

  it('says once that a walk hit its bound, and hides what it found', async () => {
    await put({ '.env': 'A=1', 'a/b/c/.env': 'A=1' });
    const secrets = new SandboxSecretFiles(join(root, 'cache'), false, {
      maxDepth: 1,
      maxEntries: 1000,
      maxFiles: 10,
    });
    expect(relative(await secrets.files([root]))).toEqual(['.env']);
    expect(await secrets.boundHit).toContain(
      `in ${root} only down to its bound (1000 entries, 1 folders down, 10 secret files)`,
    );
  });
});
