import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ArchiveError } from './extract-zip.js';
import { importedSessionsDir, importSessionZip } from './import-session-zip.js';
import {
  archiveEntries,
  declareUncompressedSize,
  type FixtureEntry,
  manifestFor,
  WIRE,
  zipOf,
} from './test-support/zip-fixtures.js';

let root: string;
let home: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'kimi-ts-zip-import-'));
  home = join(root, 'home');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function importBytes(bytes: Buffer, limits?: Parameters<typeof importSessionZip>[0]['limits']) {
  const zipPath = join(root, `in-${Math.random().toString(36).slice(2)}.zip`);
  await writeFile(zipPath, bytes);
  return importSessionZip({ zipPath, home, limits });
}

/** After a refused import nothing is left: no session folder, no temporary folder, nothing outside. */
async function expectNothingImported(): Promise<void> {
  expect(await readdir(importedSessionsDir(home)).catch(() => [])).toEqual([]);
  expect((await readdir(root)).filter((name) => !name.startsWith('in-') && name !== 'home')).toEqual([]);
}

const GOOD = { 'wire.jsonl': WIRE, 'context.jsonl': '{"role":"user","content":"hi"}\n' };

describe('importSessionZip: hostile archives', () => {
  // Each placeholder is the hostile name's length: yazl refuses to write the real ones.
  it.each([
    ['a ".." path', 'XX/XX/escaped.jsonl', '../../escaped.jsonl', /"\.\."|invalid relative path/],
    ['an absolute path', 'Xtmp/abs-wire.jsonl', '/tmp/abs-wire.jsonl', /absolute/],
    ['a drive letter', 'XX/wire.jsonl', 'C:/wire.jsonl', /absolute/],
    ['backslashes', 'XXXXXXwire.jsonl', '..\\..\\wire.jsonl', /backslash|invalid/],
    ['a NUL', 'wireXjsonl', 'wire\u0000jsonl', /control character/],
    ['an escape sequence', 'wXXXXXire.jsonl', 'w\u001b[31mire.jsonl', /control character/],
  ])('refuses an entry with %s, writing nothing', async (_what, placeholder, hostile, reason) => {
    const entries: FixtureEntry[] = [...archiveEntries(GOOD), { name: placeholder, data: 'evil' }];
    const bytes = await zipOf(entries, { [placeholder]: hostile });
    const error = await importBytes(bytes).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ArchiveError);
    expect((error as Error).message).toMatch(reason);
    // The message never carries the raw name's control characters.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: that is the point.
    expect((error as Error).message).not.toMatch(/[\u0000\u001b]/);
    await expectNothingImported();
  });

  it('refuses a symbolic link entry', async () => {
    const entries = [
      ...archiveEntries(GOOD),
      { name: 'context_1.jsonl', data: '/etc/passwd', mode: 0o120777 },
    ];
    await expect(importBytes(await zipOf(entries))).rejects.toThrow(/link or a special file/);
    await expectNothingImported();
  });

  it('refuses duplicate names', async () => {
    const entries = [...archiveEntries(GOOD), { name: 'wire.jsonl', data: 'second' }];
    await expect(importBytes(await zipOf(entries))).rejects.toThrow(/appears twice/);
    await expectNothingImported();
  });

  it('refuses a bomb by its declared size before inflating it', async () => {
    const big = Buffer.alloc(8 * 1024 * 1024);
    const files = { 'wire.jsonl': big.toString('latin1') };
    const bytes = await zipOf(archiveEntries(files));
    expect(bytes.length).toBeLessThan(64 * 1024);
    const limits = { maxEntries: 100, maxEntryBytes: 1024 * 1024, maxTotalBytes: 4 * 1024 * 1024 };
    await expect(importBytes(bytes, limits)).rejects.toThrow(/unpacks to more than 1 MiB/);
    await expectNothingImported();
  });

  it('stops a bomb that lies about its size while it inflates', async () => {
    // 64 MiB of zeros that the central directory says are 100 bytes.
    const bytes = declareUncompressedSize(
      await zipOf([{ name: 'wire.jsonl', data: Buffer.alloc(64 * 1024 * 1024) }]),
      100,
    );
    const error = await importBytes(bytes).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ArchiveError);
    expect((error as Error).message).toMatch(/damaged|more than/);
    await expectNothingImported();
  });

  it('stops at the total size and the entry count', async () => {
    const part = 'x'.repeat(600 * 1024);
    const files = { 'wire.jsonl': part, 'context.jsonl': part, 'context_1.jsonl': part };
    const limits = { maxEntries: 100, maxEntryBytes: 1024 * 1024, maxTotalBytes: 1024 * 1024 };
    await expect(importBytes(await zipOf(archiveEntries(files)), limits)).rejects.toThrow(
      /archive unpacks to more than 1 MiB/,
    );
    const many = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`context_${i + 1}.jsonl`, 'x']));
    await expect(
      importBytes(await zipOf(archiveEntries({ ...GOOD, ...many })), { ...limits, maxEntries: 10 }),
    ).rejects.toThrow(/23 entries; at most 10/);
    await expectNothingImported();
  });

  it('refuses what is not a kimi-ts export, saying so', async () => {
    await expect(importBytes(await zipOf([{ name: 'wire.jsonl', data: WIRE }]))).rejects.toThrow(
      /not a kimi-ts session archive: it has no manifest\.json/,
    );
    await expect(importBytes(await zipOf([{ name: 'hello.txt', data: 'hi' }]))).rejects.toThrow(
      /no manifest/,
    );
    const noWire = { 'context.jsonl': '{}\n' };
    await expect(importBytes(await zipOf(archiveEntries(noWire)))).rejects.toThrow(/no wire\.jsonl/);
    const foreign = [
      { name: 'manifest.json', data: '{"name":"some-npm-package"}' },
      { name: 'wire.jsonl', data: WIRE },
    ];
    await expect(importBytes(await zipOf(foreign))).rejects.toThrow(/manifest\.json is wrong at format/);
    await expect(importBytes(Buffer.from('PK\u0003\u0004 not really a zip'))).rejects.toThrow(
      /not a readable ZIP archive/,
    );
    await expectNothingImported();
  });

  it('refuses files the manifest does not list, or lists differently', async () => {
    const extra = [...archiveEntries(GOOD), { name: 'state.json', data: '{}' }];
    await expect(importBytes(await zipOf(extra))).rejects.toThrow(/not in its manifest/);
    const changed = [
      { name: 'manifest.json', data: manifestFor(GOOD) },
      { name: 'wire.jsonl', data: `${WIRE}{"injected":true}\n` },
      { name: 'context.jsonl', data: GOOD['context.jsonl'] },
    ];
    await expect(importBytes(await zipOf(changed))).rejects.toThrow(/does not match its manifest/);
    await expectNothingImported();
  });

  it('refuses a truncated or corrupted archive and leaves nothing half imported', async () => {
    const files = { 'wire.jsonl': WIRE.repeat(200), 'context.jsonl': 'y'.repeat(50_000) };
    const bytes = await zipOf(archiveEntries(files).map((e) => ({ ...e, compress: false })));
    await expect(importBytes(bytes.subarray(0, Math.floor(bytes.length / 2)))).rejects.toThrow(
      /not a readable ZIP archive/,
    );
    const corrupt = Buffer.from(bytes);
    const at = corrupt.indexOf(Buffer.from('yyyy')) + 100;
    corrupt.write('zzzz', at, 'latin1');
    await expect(importBytes(corrupt)).rejects.toThrow(/does not match its manifest/);
    const deflated = await zipOf(archiveEntries(files));
    const broken = Buffer.from(deflated);
    // Garbage in the middle of a deflate stream.
    const start = broken.indexOf(deflateRawSync(Buffer.from(WIRE.repeat(200))).subarray(0, 8));
    if (start > 0) broken.fill(0xff, start + 4, start + 40);
    await expect(importBytes(broken)).rejects.toThrow(ArchiveError);
    await expectNothingImported();
  });

  it('stops when cancelled, leaving nothing', async () => {
    const zipPath = join(root, 'in-cancel.zip');
    await writeFile(zipPath, await zipOf(archiveEntries(GOOD)));
    await expect(importSessionZip({ zipPath, home, signal: AbortSignal.abort() })).rejects.toThrow();
    await expectNothingImported();
  });
});

describe('importSessionZip: importing again', () => {
  it('finds the same archive imported before, and gives another session with its id a new name', async () => {
    const bytes = await zipOf(archiveEntries(GOOD));
    const first = await importBytes(bytes);
    expect(first).toMatchObject({ id: 'sess-1', alreadyImported: false });
    const again = await importBytes(bytes);
    expect(again).toMatchObject({ id: 'sess-1', dir: first.dir, alreadyImported: true });
    const other = await importBytes(await zipOf(archiveEntries({ ...GOOD, 'state.json': '{}' })));
    expect(other).toMatchObject({ id: 'sess-1-2', alreadyImported: false });
    expect((await readdir(importedSessionsDir(home))).sort()).toEqual(['sess-1', 'sess-1-2']);
  });

  it('clears what a crashed import left over an hour ago, and nothing newer', async () => {
    const root = importedSessionsDir(home);
    await mkdir(join(root, '.import-old', 'x'), { recursive: true });
    await mkdir(join(root, '.import-new'), { recursive: true });
    const anHourAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await utimes(join(root, '.import-old'), anHourAgo, anHourAgo);
    await importBytes(await zipOf(archiveEntries(GOOD)));
    expect((await readdir(root)).sort()).toEqual(['.import-new', 'sess-1']);
  });

  it('leaves the id of a session of this home to it', async () => {
    await mkdir(join(home, 'sessions', 'abc123', 'sess-1'), { recursive: true });
    const imported = await importBytes(await zipOf(archiveEntries(GOOD)));
    expect(imported.id).toBe('sess-1-2');
  });
});
