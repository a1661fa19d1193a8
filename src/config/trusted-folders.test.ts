import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  addTrustedFolder,
  isCoveredBy,
  isListedIn,
  readTrustedFolders,
  TrustRecordError,
} from './trusted-folders.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kimi-ts-trust-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the trust record', () => {
  it('trusts nothing when missing; a folder added is kept once, in a private file', async () => {
    const file = join(dir, 'home', 'trusted-folders.json');
    expect(await readTrustedFolders(file)).toEqual([]);
    await addTrustedFolder(file, '/work/a');
    await addTrustedFolder(file, '/work/a');
    await addTrustedFolder(file, '/work/b');
    expect(await readTrustedFolders(file)).toEqual(['/work/a', '/work/b']);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8')).version).toBe(1);
  });

  it('a record that cannot be read is an error naming the file (the caller starts untrusted)', async () => {
    const file = join(dir, 'trusted-folders.json');
    await writeFile(file, '{"version":1,"folders":["relative/path"]}');
    await expect(readTrustedFolders(file)).rejects.toThrow(TrustRecordError);
    await writeFile(file, 'not json');
    await expect(readTrustedFolders(file)).rejects.toThrow(file);
  });

  it.each([
    ['/w/proj', ['/w/proj'], true],
    ['/w/proj/sub/deeper', ['/w/proj'], true],
    ['/w/project', ['/w/proj'], false],
    ['/w', ['/w/proj'], false],
    ['/w/other', ['/w/proj', '/w/other'], true],
    ['/w/proj', [], false],
  ])('%s is covered by %j: %s', (folder, trusted, covered) => {
    expect(isCoveredBy(folder, trusted)).toBe(covered);
  });

  it.each([
    ['/w/proj', ['/w/proj'], true],
    ['/w/proj', ['/w/proj/'], true],
    ['/w/proj/sub', ['/w/proj'], false],
    ['/w/project', ['/w/proj'], false],
    ['/w/other', ['/w/proj', '/w/other'], true],
  ])('%s is listed in %j itself (its own rules trusted): %s', (folder, trusted, listed) => {
    expect(isListedIn(folder, trusted)).toBe(listed);
  });
});
