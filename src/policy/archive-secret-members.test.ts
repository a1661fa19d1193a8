import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ArchiveKind, archiveKind, archiveSecretReason } from './archive-secret-members.js';

let root: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'kimi-ts-archives-')));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Packs `files` (under a folder of their own) with the real tar or zip into `name`; its path. */
async function pack(
  name: string,
  files: Record<string, string | Buffer>,
  tarFormat = 'gnu',
): Promise<string> {
  const from = join(root, `from-${name}`);
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(from, path)), { recursive: true });
    await writeFile(join(from, path), content);
  }
  const archive = join(root, name);
  const kind = archiveKind(name);
  if (kind === 'zip') execFileSync('zip', ['-qr', archive, '.'], { cwd: from });
  else
    execFileSync('tar', [kind === 'tar' ? 'cf' : 'czf', archive, `--format=${tarFormat}`, '-C', from, '.']);
  await rm(from, { recursive: true });
  return archive;
}

const reason = (path: string) => archiveSecretReason(path, archiveKind(path) as ArchiveKind);

describe('archiveSecretReason', () => {
  it.each(['backup.tar.gz', 'backup.tgz', 'backup.tar', 'backup.zip'])(
    'finds a secret file among the members of %s',
    async (name) => {
      const archive = await pack(name, { 'src/index.ts': 'x', 'old/.env': 'DB_PASSWORD=x\n' });
      expect(await reason(archive)).toBe('holds .env, a dotenv file');
    },
  );

  it.each(['plain.tar.gz', 'plain.tar', 'plain.zip'])(
    'is null for %s holding no secret file',
    async (name) => {
      const archive = await pack(name, { 'src/index.ts': 'x', 'README.md': 'x', '.env.example': 'A=' });
      expect(await reason(archive)).toBeNull();
    },
  );

  it('reads a member past a large one, and long names (GNU and pax headers)', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024, 7);
    const deep = `${'d'.repeat(60)}/${'e'.repeat(60)}/keys/id_ed25519`;
    for (const format of ['gnu', 'pax']) {
      for (const name of [`big-${format}.tar`, `big-${format}.tar.gz`]) {
        const archive = await pack(name, { 'a/data.bin': big, [deep]: 'key' }, format);
        expect(await reason(archive)).toBe('holds id_ed25519, a private key');
      }
    }
  });

  it('is null for a file named like an archive that is none, and answers again when it changes', async () => {
    const fake = join(root, 'notes.tar.gz');
    await writeFile(fake, 'not gzip at all');
    expect(await reason(fake)).toBeNull();
    await writeFile(join(root, 'notes.tar'), 'short');
    expect(await reason(join(root, 'notes.tar'))).toBeNull();
    const archive = await pack('again.tar.gz', { '.npmrc': '//r/:_authToken=x' });
    expect(await reason(archive)).toBe('holds .npmrc, a credentials file');
    await rm(archive);
    await pack('again.tar.gz', { 'notes.txt': 'x' });
    expect(await reason(archive)).toBeNull();
  });
});
