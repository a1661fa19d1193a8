import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ArchiveKind, archiveKind, archiveSecretReason } from './archive-secret-members.js';

/**
 * Tars compressed with bzip2, xz and zstd (holes5, 5): listed without unpacking, through the
 * system's decompressor, as `.tar.gz` is through zlib. Packed here by the real tar (`-a`: by suffix).
 */

let root: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'kimi-ts-compressed-')));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function pack(name: string, files: Record<string, string | Buffer>): Promise<string> {
  const from = join(root, `from-${name}`);
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(from, path)), { recursive: true });
    await writeFile(join(from, path), content);
  }
  const archive = join(root, name);
  execFileSync('tar', ['-caf', archive, '-C', from, '.']);
  await rm(from, { recursive: true });
  return archive;
}

const reason = (path: string) => archiveSecretReason(path, archiveKind(path) as ArchiveKind);

const NAMES = [
  'backup.tar.bz2',
  'backup.tbz2',
  'backup.tar.xz',
  'backup.txz',
  'backup.tar.zst',
  'backup.tzst',
];

describe('archiveSecretReason: tars compressed with bzip2, xz, zstd', () => {
  it.each(NAMES)('finds a secret file among the members of %s', async (name) => {
    const archive = await pack(name, { 'src/index.ts': 'x', 'old/.env': 'DB_PASSWORD=x\n' });
    expect(await reason(archive)).toBe('holds .env, a dotenv file');
  });

  it.each(NAMES)('is null for %s holding no secret file', async (name) => {
    const archive = await pack(name, { 'src/index.ts': 'x', 'README.md': 'x' });
    expect(await reason(archive)).toBeNull();
  });

  it('reads a member past a large one', async () => {
    const archive = await pack('big.tar.xz', {
      'a/data.bin': Buffer.alloc(3 * 1024 * 1024, 7),
      'z/id_rsa': 'k',
    });
    expect(await reason(archive)).toBe('holds id_rsa, a private key');
  });

  it('is null for a file that is no such archive, and where the decompressor is missing', async () => {
    const fake = join(root, 'fake.tar.xz');
    await writeFile(fake, 'not xz at all');
    expect(await reason(fake)).toBeNull();
    const archive = await pack('keys.tar.zst', { '.env': 'A=1' });
    const path = process.env.PATH;
    process.env.PATH = root;
    try {
      expect(await reason(archive)).toBeNull();
    } finally {
      process.env.PATH = path;
    }
  });
});
