import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { deflateObject } from './zlib-stored.js';

/**
 * The few writes to the store that need no git: the store's skeleton, the top tree of a checkpoint,
 * its commit and its ref. Each is a small file in git's documented on-disk format (loose objects and
 * loose refs), written here instead of by one git process each (`init`, `mktree`, `commit-tree`,
 * `update-ref`: four of the ten git processes a first session in a work dir started). Staging the
 * work tree and writing its trees stays with git (`add`, `write-tree`), as do all reads, except a
 * small folder's first record (record-in-process.ts, which writes its blobs and trees here too).
 *
 * The writes are synchronous: each is a file of a few hundred bytes, and an asynchronous write is a
 * round trip through the thread pool per call (open, write, close, rename, mkdir: some 50 of them
 * for a first checkpoint), which cost more CPU than the writes themselves.
 */

/** The author and committer of every checkpoint (as runGit's `user.name` and `user.email`). */
const IDENTITY = 'kimi-ts <checkpoints@kimi-ts.invalid>';

/**
 * The store's own attributes (`info/attributes`, which beat every `.gitattributes` of a work tree):
 * a checkpoint holds a file's bytes as they are. A work tree's `* text=auto` (common in a vendored
 * repository) made `git add` store a CRLF file with LF endings, and a rewind wrote it back changed;
 * `ident` and a `filter` rewrite bytes too (a filter with no command set in the store's config does
 * nothing, but the attribute is unset all the same).
 */
export const STORE_ATTRIBUTES = '* -text -eol -ident -filter -working-tree-encoding\n';

/** Writes the store's attributes when missing or different (a store made by an older version). */
export function ensureStoreAttributes(gitDir: string): void {
  const file = join(gitDir, 'info', 'attributes');
  let current: string | null = null;
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    // Missing: written below.
  }
  if (current === STORE_ATTRIBUTES) return;
  mkdirSync(join(gitDir, 'info'), { recursive: true });
  const temp = `${file}.${randomBytes(4).toString('hex')}`;
  writeFileSync(temp, STORE_ATTRIBUTES);
  renameSync(temp, file);
}

/**
 * Writes the files of an empty bare repository into `gitDir`: what git needs to take a folder for a
 * repository (`HEAD`, `objects/`, `refs/`), not all `git init --bare` writes. Its sample hooks and
 * description nothing reads; `objects/info`, `objects/pack`, `refs/heads` and `refs/tags` git makes
 * when it writes there. The store's attributes (`info/attributes`) are written by the first record
 * that stages files with git (checkpoint-store.ts). Each folder or file made is ~0.2 ms of a fresh
 * work dir's first checkpoint.
 */
export async function writeStoreSkeleton(gitDir: string): Promise<void> {
  mkdirSync(gitDir, { recursive: true });
  for (const dir of ['objects', 'refs']) mkdirSync(join(gitDir, dir));
  writeFileSync(
    join(gitDir, 'config'),
    '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = true\n',
  );
  // HEAD last: a store counts as existing once it has a HEAD (checkpoint-store.ts).
  writeFileSync(join(gitDir, 'HEAD'), 'ref: refs/heads/master\n');
}

/**
 * Creates the store whole, then puts it in place: it is made in a private folder beside it and
 * renamed, so a second session starting at the same moment sees either no store or a complete one
 * (a store being made in place had HEAD before its config and folders, and the other session's first
 * checkpoint then failed). The loser of two creations keeps the winner's store. True when this
 * call made the store (it holds no checkpoint then).
 */
export async function createStore(gitDir: string): Promise<boolean> {
  mkdirSync(dirname(gitDir), { recursive: true, mode: 0o700 });
  const temp = mkdtempSync(`${gitDir}.new-`);
  try {
    await writeStoreSkeleton(temp);
    // Renaming over a folder works only when it is empty (a leftover of an older version's mkdir).
    renameSync(temp, gitDir);
    return true;
  } catch (error) {
    rmSync(temp, { recursive: true, force: true });
    if (!existsSync(join(gitDir, 'HEAD'))) throw error;
    return false;
  }
}

export type ObjectType = 'commit' | 'tree' | 'blob';

/** Where a record's objects go: each written at once (looseObjects) or together (object-batch.ts). */
export interface ObjectSink {
  /** Takes an object; returns its id. */
  add(type: ObjectType, body: Buffer): string;
}

const objectHeader = (type: ObjectType, body: Buffer) => Buffer.from(`${type} ${body.length}\0`, 'latin1');

/** An object's id: the SHA-1 of `<type> <size>\0<body>`. */
export function objectId(type: ObjectType, body: Buffer): string {
  return createHash('sha1').update(objectHeader(type, body)).update(body).digest('hex');
}

/** Writes one loose object (zlib of `<type> <size>\0<body>`) unless it exists; returns its id. */
export function writeLooseObject(gitDir: string, type: ObjectType, body: Buffer): string {
  const raw = Buffer.concat([objectHeader(type, body), body]);
  const id = createHash('sha1').update(raw).digest('hex');
  const file = join(gitDir, 'objects', id.slice(0, 2), id.slice(2));
  if (existsSync(file)) return id;
  // Git's own loose objects are read-only; it never writes one twice.
  writeAtomically(file, deflateObject(raw, type === 'blob'), 0o444);
  return id;
}

/** A sink that writes each object as a loose object at once. */
export function looseObjects(gitDir: string): ObjectSink {
  return { add: (type, body) => writeLooseObject(gitDir, type, body) };
}

/** The tree holding one sub-tree per root, named `0`, `1`, … (as `git mktree` would write it). */
export function writeRootsTree(objects: ObjectSink, rootTrees: readonly string[]): string {
  // Git orders tree entries by name, a sub-tree's name compared as if it ended in `/`.
  const entries = rootTrees
    .map((tree, index) => ({ key: `${index}/`, name: String(index), tree }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const body = Buffer.concat(
    entries.flatMap((e) => [Buffer.from(`40000 ${e.name}\0`, 'latin1'), Buffer.from(e.tree, 'hex')]),
  );
  return objects.add('tree', body);
}

/** A parentless commit of `tree` with `message` (as `git commit-tree <tree> -F -` would write it). */
export function writeCommit(objects: ObjectSink, tree: string, message: string, when: number): string {
  const stamp = `${Math.floor(when / 1000)} +0000`;
  const text = `tree ${tree}\nauthor ${IDENTITY} ${stamp}\ncommitter ${IDENTITY} ${stamp}\n\n${message}`;
  return objects.add('commit', Buffer.from(text, 'utf8'));
}

/**
 * Points a ref (`refs/...`, names made by the store only) at `id`: a loose ref file, replaced
 * atomically. Git reads a loose ref before the packed one of the same name.
 */
export async function writeRef(gitDir: string, ref: string, id: string): Promise<void> {
  // The names git itself accepts, within what the store makes (git refuses `..` and `.lock` parts).
  const parts = ref.split('/');
  const valid =
    /^refs\/[A-Za-z0-9/_.-]+$/.test(ref) &&
    !ref.includes('..') &&
    parts.every((part) => part !== '' && !part.startsWith('.') && !part.endsWith('.lock'));
  if (!valid) throw new Error(`bad ref name ${ref}`);
  writeAtomically(join(gitDir, ref), `${id}\n`, 0o644);
}

/** Writes `file` whole or not at all: a temporary file beside it, renamed over it. */
export function writeAtomically(file: string, data: string | Buffer, mode: number): void {
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.tmp-${randomBytes(4).toString('hex')}`;
  try {
    writeFileSync(temp, data, { mode });
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
