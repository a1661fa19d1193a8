import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RedactedCopies } from './sandbox-redacted-copies.js';
import { TokenFiles } from './sandbox-token-files.js';
import { markerOf } from './token-redaction.js';

const GHP = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
const MIB = 1024 * 1024;

let dir: string;
let copies: RedactedCopies;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kimi-ts-token-files-'));
  copies = new RedactedCopies(join(dir, 'cache'));
});
afterEach(() => {
  copies.dispose();
  rmSync(dir, { recursive: true, force: true });
});

/** A file of the work tree, written now and dated a second back (settled: its scan is kept). */
function plant(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** Lets the file times of what was just written settle past the scan's margin. */
async function settle(): Promise<void> {
  await new Promise((done) => setTimeout(done, 60));
}

describe('TokenFiles', () => {
  it('copies a file holding a token with the token replaced, the same size, private to the owner', async () => {
    const file = plant('deploy-notes.txt', `push with ${GHP}\nend\n`);
    const found = await new TokenFiles(copies, true).find([file]);
    const copy = found.copies.get(file);
    expect(copy).toBeDefined();
    expect(readFileSync(copy!, 'latin1')).toBe(`push with ghp_${markerOf(36)}\nend\n`);
    expect(statSync(copy!).mode & 0o777).toBe(0o600);
    expect(found.hidden).toEqual([]);
  });

  it('reads an unchanged file once, a changed one again (its copy made again, the old one removed)', async () => {
    const file = plant('notes.txt', `a ${GHP}\n`);
    const clean = plant('readme.txt', 'nothing\n');
    await settle();
    const tokens = new TokenFiles(copies, true);
    const first = await tokens.find([file, clean]);
    expect(tokens.scannedFiles).toBe(2);
    await tokens.find([file, clean]);
    expect(tokens.scannedFiles).toBe(2);
    // Appended in place: the folder does not change, the file's ctime and size do.
    writeFileSync(file, `b ${GHP}\n`, { flag: 'a' });
    const second = await tokens.find([file, clean]);
    expect(tokens.scannedFiles).toBe(3);
    expect(existsSync(first.copies.get(file)!)).toBe(false);
    expect(readFileSync(second.copies.get(file)!, 'latin1')).toBe(
      `a ghp_${markerOf(36)}\nb ghp_${markerOf(36)}\n`,
    );
    // The token taken out: no copy any more.
    writeFileSync(file, 'clean now\n');
    const third = await tokens.find([file, clean]);
    expect(third.copies.size).toBe(0);
    expect(existsSync(second.copies.get(file)!)).toBe(false);
  });

  // Chosen: the first MiB is scanned, and a token that starts in it is read on to its end.
  it('replaces whole a token across the first MiB; one past it is left as it is (the bound)', async () => {
    const across = plant('across.log', `${'x'.repeat(MIB - 10)} ${GHP}\nend\n`);
    const past = plant('past.log', `${'line\n'.repeat(MIB / 4)} ${GHP}\n`);
    const found = await new TokenFiles(copies, true).find([across, past]);
    const copy = readFileSync(found.copies.get(across)!, 'latin1');
    expect(copy.length).toBe(MIB - 10 + 1 + GHP.length + 5);
    expect(copy.endsWith(` ghp_${markerOf(36)}\nend\n`)).toBe(true);
    expect(found.copies.has(past)).toBe(false);
  });

  it('hides whole what no copy can leave out: a Kubernetes Secret, UTF-16 text holding a token', async () => {
    const manifest = plant('secret.yaml', 'kind: Secret\ndata:\n  password: aHVudGVyMg==\n');
    const utf16 = plant('notes-utf16.txt', Buffer.from(`\ufeffpush with ${GHP}\n`, 'utf16le'));
    const found = await new TokenFiles(copies, true).find([manifest, utf16]);
    expect([...found.hidden].sort()).toEqual([manifest, utf16].sort());
    expect(found.copies.size).toBe(0);
  });

  it('passes over compressed files (not text the table reads)', async () => {
    const text = plant('notes.txt', `push with ${GHP}\n`);
    execFileSync('gzip', ['-k', text]);
    const found = await new TokenFiles(copies, true).find([`${text}.gz`]);
    expect(found.copies.size + found.hidden.length).toBe(0);
  });

  it('leaves what is past the reading bound to the next readings', async () => {
    const files = [plant('a.txt', `${GHP}\n`), plant('b.txt', `${GHP}\n`), plant('c.txt', `${GHP}\n`)];
    await settle();
    const tokens = new TokenFiles(copies, true, {
      fileBytes: MIB,
      readingBytes: 2 * (GHP.length + 1),
      copyBytes: MIB,
    });
    const first = await tokens.find(files);
    expect([first.copies.size, first.unscanned]).toEqual([2, 1]);
    const second = await tokens.find(files);
    expect([second.copies.size, second.unscanned]).toEqual([3, 0]);
  });

  // Changed past the bound: not read this time, and not shown whole meanwhile.
  it('hides whole a token file that changed when the reading bound leaves it unread', async () => {
    const first = plant('a.txt', `${GHP}\n`);
    const second = plant('b.txt', `${GHP}\n`);
    await settle();
    const tokens = new TokenFiles(copies, true, {
      fileBytes: MIB,
      readingBytes: GHP.length + 1,
      copyBytes: MIB,
    });
    const before = await tokens.find([first]);
    expect(before.copies.has(first)).toBe(true);
    writeFileSync(second, `${GHP}\n${GHP}\n`);
    writeFileSync(first, `${GHP}\nmore\n`);
    const after = await tokens.find([second, first]);
    expect(after.unscanned).toBe(1);
    expect(after.copies.has(first)).toBe(false);
    expect(after.hidden).toEqual([first]);
  });

  it('copies an .npmrc without its credential lines', async () => {
    const npmrc = plant(
      '.npmrc',
      'registry=https://r.test/\n//r.test/:_authToken=abc123secret\n_auth=dXNlcjpwYXNz\nsave-exact=true\n',
    );
    const found = await new TokenFiles(copies, true).find([], [npmrc]);
    expect(readFileSync(found.copies.get(npmrc)!, 'utf8')).toBe(
      'registry=https://r.test/\nsave-exact=true\n',
    );
  });

  it('dispose removes every copy', async () => {
    const file = plant('notes.txt', `${GHP}\n`);
    const copy = (await new TokenFiles(copies, true).find([file])).copies.get(file)!;
    copies.dispose();
    expect(existsSync(copy)).toBe(false);
  });
});
