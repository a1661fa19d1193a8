import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, utimesSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { isSameSignature, storeStateOf } from './git-store-signature.js';

let dir: string;
let place: { gitDir: string; commonDir: string; top: string };
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kimi-ts-git-signature-'));
  git('init', '-q');
  place = { gitDir: join(dir, '.git'), commonDir: join(dir, '.git'), top: dir };
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function git(...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    cwd: dir,
    encoding: 'utf8',
  });
}

/**
 * The store's folders' times set back (further at each call): a change after it gives them times
 * of now, whatever the file times' tick. Their change times are now: `later` counts them settled
 * (their fan-out folders listed).
 */
let settles = 0;
const later = () => Date.now() + 3_600_000;
function settle(): void {
  const past = new Date(Date.now() - 3_600_000 - ++settles * 1_000);
  const objects = join(dir, '.git', 'objects');
  for (const name of ['.', ...readdirSync(objects)]) utimesSync(join(objects, name), past, past);
}

/** A new loose object, by its content: its fan-out folder is the id's first two digits. */
async function addObject(text: string): Promise<string> {
  await writeFile(join(dir, 'x'), text);
  return git('hash-object', '-w', 'x').trim();
}

it('changes when a loose object is added, to a new fan-out folder or one there is', async () => {
  const first = await addObject('one\n');
  settle();
  const before = storeStateOf(place, later)!;
  expect(isSameSignature(before.signature, storeStateOf(place, later)!.signature)).toBe(true);
  // Another object in the same fan-out folder: that folder's times change, not objects/'s.
  let text = 'a';
  while (true) {
    text += 'a';
    const id = createHash('sha1').update(`blob ${text.length}\0${text}`).digest('hex');
    if (id !== first && id.slice(0, 2) === first.slice(0, 2)) break;
  }
  await addObject(text);
  expect(isSameSignature(before.signature, storeStateOf(place, later)!.signature)).toBe(false);
  settle();
  const settled = storeStateOf(place, later)!;
  await addObject('two\n');
  expect(isSameSignature(settled.signature, storeStateOf(place, later)!.signature)).toBe(false);
});

it('changes when a pack is added to a packed store', async () => {
  await addObject('one\n');
  git('add', 'x');
  git('commit', '-qm', 'one');
  git('gc', '-q', '--prune=now');
  settle();
  const packed = storeStateOf(place, later)!;
  await addObject('two\n');
  git('add', 'x');
  git('commit', '-qm', 'two');
  git('repack', '-q', '-d');
  expect(isSameSignature(packed.signature, storeStateOf(place, later)!.signature)).toBe(false);
});

it('is the same whether objects/ was listed or every fan-out folder name looked up', async () => {
  await addObject('one\n');
  // Just changed: all 256 names looked up; an hour on, settled: only the one listed.
  expect(isSameSignature(storeStateOf(place)!.signature, storeStateOf(place, later)!.signature)).toBe(true);
});

it('is null for a store with alternates', async () => {
  await writeFile(join(dir, '.git', 'objects', 'info', 'alternates'), '/elsewhere/objects\n');
  expect(storeStateOf(place)).toBeNull();
});
