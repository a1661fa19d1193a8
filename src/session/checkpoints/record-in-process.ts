import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { secretNameReason } from '../../policy/index.js';
import type { SkippedFile } from './checkpoint-info.js';
import { type IndexEntry, writeIndexFile } from './index-file.js';
import { ObjectBatch } from './object-batch.js';
import { readPictured } from './read-pictured.js';
import type { WorkTreeStat } from './work-tree-stat.js';

/**
 * The first record of a folder into an empty session index, without git: a fresh work dir's first
 * checkpoint started three git processes (`ls-files`, `add`, `write-tree`), each a fork of the CLI
 * and an exec of git, about a tenth of a short session's CPU. With no index, every file git would not
 * ignore is a candidate; when nothing in or around the folder can make git ignore or convert a file,
 * that is every file of the stat picture, and the blobs, trees and index are written here in git's
 * formats. Anything this cannot vouch for gives `null`, and the record runs git as before:
 * - an ignore or attributes file (`.gitignore` anywhere, `.git/info/exclude`, the user's global ones,
 *   the store's own), a nested repository, any name git treats specially (`.git…`, `git~1`), a name
 *   outside printable ASCII (git records bytes, `readdir` gives decoded text), a device or a socket;
 * - more files or bytes than pay off (git hashes in C, and packs a large first record);
 * - a file that changed or vanished between the picture and its read (read-pictured.ts: by
 *   descriptor, no symlink followed, no FIFO waited on).
 */

/** Up to this many files and bytes to record, the first record is written here (above, git's process cost is small beside the hashing). */
export const IN_PROCESS_MAX_FILES = 200;
// Read, hashed and deflated on the event loop: a megabyte is a few milliseconds of it.
export const IN_PROCESS_MAX_BYTES = 1024 * 1024;

/** A name git records as it is, with no special meaning to git on any platform it protects. */
const PLAIN_NAME = /^[\x20-\x5b\x5d-\x7e]+$/;

function isPlainName(name: string): boolean {
  const lower = name.toLowerCase();
  return PLAIN_NAME.test(name) && !lower.startsWith('.git') && !/^git~\d/.test(lower);
}

/** The files outside the folder that make git ignore files or rewrite their bytes. */
function outsideRuleFiles(gitDir: string, root: string): string[] {
  const home = process.env.HOME || homedir();
  const configDirs = [join(home, '.config')];
  if (process.env.XDG_CONFIG_HOME) configDirs.push(process.env.XDG_CONFIG_HOME);
  return [
    join(root, '.git', 'info', 'exclude'),
    join(gitDir, 'info', 'exclude'),
    // The store's `info/attributes` is its own (store-objects.ts): it only turns conversions off.
    ...configDirs.flatMap((dir) => [join(dir, 'git', 'ignore'), join(dir, 'git', 'attributes')]),
  ];
}

interface Candidate {
  path: string;
  type: 'f' | 'l';
  size: number;
}

/** The files of the picture, or null when git could see them differently (see above). */
function plainFiles(picture: WorkTreeStat): Candidate[] | null {
  const files: Candidate[] = [];
  for (const [path, value] of picture.entries) {
    if (path === '' || path.startsWith('\0')) continue;
    if (!path.split('/').every(isPlainName)) return null;
    const [type, size] = value.split(' ');
    if (type === 'd') continue;
    if (type !== 'f' && type !== 'l') return null;
    files.push({ path, type, size: Number(size) });
  }
  return files;
}

/** A sub-tree being built: files by name (mode, blob) and folders by name. */
interface TreeNode {
  files: Map<string, { mode: number; blob: string }>;
  folders: Map<string, TreeNode>;
}

const newNode = (): TreeNode => ({ files: new Map(), folders: new Map() });

/** Writes a tree and its sub-trees; an empty folder has no tree (git records none). */
function writeTree(objects: ObjectBatch, node: TreeNode): string | null {
  const entries: { key: string; name: string; mode: string; id: string }[] = [];
  for (const [name, file] of node.files)
    entries.push({ key: name, name, mode: file.mode.toString(8), id: file.blob });
  for (const [name, folder] of node.folders) {
    const id = writeTree(objects, folder);
    if (id) entries.push({ key: `${name}/`, name, mode: '40000', id });
  }
  if (entries.length === 0) return null;
  // Git orders entries by name bytes, a sub-tree's name compared as if it ended in `/`.
  entries.sort((a, b) => Buffer.compare(Buffer.from(a.key), Buffer.from(b.key)));
  const body = Buffer.concat(
    entries.flatMap((e) => [Buffer.from(`${e.mode} ${e.name}\0`, 'latin1'), Buffer.from(e.id, 'hex')]),
  );
  return objects.add('tree', body);
}

/** The folder's tree: an empty top folder has git's empty tree, an empty sub-folder none. */
function writeRootTree(objects: ObjectBatch, top: TreeNode): string {
  return writeTree(objects, top) ?? objects.add('tree', Buffer.alloc(0));
}

/**
 * Records `root` (index `rootIndex` of the store's roots) from its trusted stat `picture` into the
 * session index `indexFile`, which must not exist yet. Null when git must do it (see above). With
 * `objects`, the blobs and trees go into that batch and the index is written when it is flushed
 * (after them); without, they and the index are written before this returns.
 */
export async function recordRootInProcess(options: {
  gitDir: string;
  objects?: ObjectBatch | undefined;
  root: string;
  rootIndex: number;
  picture: WorkTreeStat;
  indexFile: string;
  maxFileBytes: number;
  signal?: AbortSignal | undefined;
}): Promise<{ tree: string; skipped: SkippedFile[]; candidates: string[] } | null> {
  const { gitDir, root, rootIndex, picture } = options;
  if (outsideRuleFiles(gitDir, root).some((file) => existsSync(file))) return null;
  const files = plainFiles(picture);
  if (!files || files.length > IN_PROCESS_MAX_FILES) return null;
  // In git's order (`ls-files` lists by path bytes): the order of the manifest's skipped files.
  files.sort((a, b) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)));
  const skipped: SkippedFile[] = [];
  const toRecord: Candidate[] = [];
  let bytes = 0;
  for (const file of files) {
    if (secretNameReason(file.path) !== null)
      skipped.push({ root: rootIndex, path: file.path, reason: 'sensitive' });
    else if (file.type === 'f' && file.size > options.maxFileBytes)
      skipped.push({ root: rootIndex, path: file.path, reason: 'too_large' });
    else {
      bytes += file.size;
      toRecord.push(file);
    }
  }
  if (bytes > IN_PROCESS_MAX_BYTES) return null;
  const objects = options.objects ?? new ObjectBatch(gitDir);
  const top = newNode();
  const entries: IndexEntry[] = [];
  for (const file of toRecord) {
    options.signal?.throwIfAborted();
    const read = readPictured(join(root, file.path), file.type, picture.entries.get(file.path));
    if (read === null) return null;
    const { content, stat: before } = read;
    const mode = file.type === 'l' ? 0o120000 : before.mode & 0o100n ? 0o100755 : 0o100644;
    const blob = objects.add('blob', content);
    entries.push({ path: file.path, blob, mode, stat: before });
    const names = file.path.split('/');
    const name = names.pop() as string;
    let node = top;
    for (const folder of names) {
      const next = node.folders.get(folder) ?? newNode();
      node.folders.set(folder, next);
      node = next;
    }
    node.files.set(name, { mode, blob });
  }
  const tree = writeRootTree(objects, top);
  options.signal?.throwIfAborted();
  objects.afterObjects(() => writeIndexFile(options.indexFile, entries));
  if (!options.objects) objects.flush();
  return { tree, skipped, candidates: files.map((f) => f.path) };
}
