import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 as zlibCrc32 } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ObjectBatch } from './object-batch.js';
import { crc32 } from './pack-file.js';
import { looseObjects, writeCommit, writeRootsTree, writeStoreSkeleton } from './store-objects.js';

let gitDir: string;

beforeEach(async () => {
  gitDir = join(await mkdtemp(join(tmpdir(), 'kimi-ts-pack-file-')), 'store.git');
  await writeStoreSkeleton(gitDir);
});

afterEach(async () => {
  await rm(join(gitDir, '..'), { recursive: true, force: true });
});

const git = (args: string[], input: string | Buffer = '') =>
  execFileSync('git', args, {
    input,
    encoding: 'utf8',
    env: { ...process.env, GIT_DIR: gitDir, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
  }).trim();

const packFiles = () =>
  existsSync(join(gitDir, 'objects', 'pack')) ? readdirSync(join(gitDir, 'objects', 'pack')) : [];

describe('a batch of objects written as one pack', () => {
  it('is read by git: every object, its type and bytes, and the index checks out', () => {
    const batch = new ObjectBatch(gitDir);
    const blobs = [
      Buffer.alloc(0),
      Buffer.from('release 2.4\n'),
      // Past the stored-block size (zlib's deflate) and past a 1-byte size in the entry header.
      Buffer.from('x'.repeat(70_000)),
      Buffer.from(Array.from({ length: 300 }, (_, i) => i % 256)),
    ];
    const ids = blobs.map((blob) => batch.add('blob', blob));
    expect(ids).toEqual(blobs.map((blob) => git(['hash-object', '--stdin'], blob)));
    const names = ['a', 'b', 'c', 'd'];
    const body = Buffer.concat(
      ids.flatMap((id, i) => [Buffer.from(`100644 ${names[i]}\0`, 'latin1'), Buffer.from(id, 'hex')]),
    );
    const tree = batch.add('tree', body);
    const top = writeRootsTree(batch, [tree]);
    const commit = writeCommit(batch, top, '{"label":"turn 1"}', 1_700_000_000_000);
    // Twice the same object: once in the pack.
    expect(batch.add('blob', blobs[1] as Buffer)).toBe(ids[1]);
    let indexAt = -1;
    batch.afterObjects(() => {
      indexAt = packFiles().length;
    });
    batch.flush();
    const files = packFiles();
    expect(files.filter((f) => f.endsWith('.pack'))).toHaveLength(1);
    // What names the objects was written after them.
    expect(indexAt).toBe(2);
    const idx = join(gitDir, 'objects', 'pack', files.find((f) => f.endsWith('.idx')) as string);
    const listed = git(['verify-pack', '-v', idx]);
    expect(listed).toMatch(/: ok$/);
    expect(listed).toContain('non delta: 7 objects');
    expect(git(['cat-file', '-t', commit])).toBe('commit');
    expect(git(['ls-tree', '-r', commit])).toBe(
      ids.map((id, i) => `100644 blob ${id}\t0/${names[i]}`).join('\n'),
    );
    expect(git(['cat-file', 'blob', ids[2] as string])).toBe('x'.repeat(70_000));
    git(['update-ref', 'refs/kimi-ts/s/000001', commit]);
    expect(git(['fsck', '--strict', '--no-dangling'])).toBe('');
    expect(readdirSync(join(gitDir, 'objects')).sort()).toEqual(['pack']);
  });

  it('of a few objects is written loose instead', () => {
    const batch = new ObjectBatch(gitDir);
    const top = writeRootsTree(batch, [git(['mktree'])]);
    const commit = writeCommit(batch, top, 'm', 1_700_000_000_000);
    batch.flush();
    expect(packFiles()).toEqual([]);
    expect(git(['cat-file', '-t', commit])).toBe('commit');
    expect(writeRootsTree(looseObjects(gitDir), [git(['mktree'])])).toBe(top);
  });

  it("computes zlib's CRC-32", () => {
    for (const data of [Buffer.alloc(0), Buffer.from('hello'), Buffer.alloc(5000, 0xa7)])
      expect(crc32(data)).toBe(zlibCrc32(data));
    // Continued over two pieces: the CRC of the whole.
    expect(crc32(Buffer.from(' world'), crc32(Buffer.from('hello')))).toBe(zlibCrc32('hello world'));
  });
});
