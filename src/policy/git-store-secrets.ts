import { runGitProcess } from '../util/git-process.js';
import { gitStoreSignature } from './git-store-state.js';
import { bytesSecretContentReason, SECRET_SCAN_BYTES } from './secret-content.js';
import { secretNameReason } from './secret-file-names.js';

/**
 * Why git's object store of a repository holds a secret, or null: a blob whose content matches the
 * credential table (secret-content.ts), or a tree that names a file secret by its name (a `.env`
 * committed once). A command that prints stored blobs (`git show HEAD:notes`, `git log -p`,
 * `git cat-file -p <id>`) hands over what the history holds, deleted files and all, and names no
 * file the other checks can look at. Each object is judged once per process, by its id (its
 * content's hash: the same id is the same content in any repository); only new objects are read.
 */
export async function gitStoreSecretReason(gitArgs: readonly string[], cwd: string): Promise<string | null> {
  // Unchanged since the last scan (no object added or removed): the same answer, without git.
  const state = gitStoreSignature(gitArgs, cwd);
  const known = state === null ? undefined : storeVerdicts.get(state.objects);
  if (state !== null && known?.signature === state.signature) return known.reason;
  const reason = await scanStore(gitArgs, cwd);
  if (state !== null && reason.scanned) {
    if (storeVerdicts.size >= MAX_STORES) storeVerdicts.clear();
    storeVerdicts.set(state.objects, { signature: state.signature, reason: reason.reason });
  }
  return reason.reason;
}

/** The last verdict on each store (by its objects folder), with the state it was given for. */
const storeVerdicts = new Map<string, { signature: string; reason: string | null }>();
const MAX_STORES = 64;

/** `scanned`: the verdict came from the objects themselves or their size, not from a failure to list or read them. */
async function scanStore(
  gitArgs: readonly string[],
  cwd: string,
): Promise<{ reason: string | null; scanned: boolean }> {
  const unscanned = (reason: string | null) => ({ reason, scanned: false });
  const scanned = (reason: string | null) => ({ reason, scanned: true });
  let listed: Buffer;
  try {
    ({ stdout: listed } = await git(
      [
        ...gitArgs,
        'cat-file',
        '--batch-all-objects',
        '--batch-check=%(objectname) %(objecttype) %(objectsize)',
      ],
      cwd,
      MAX_LISTING_BYTES,
    ));
  } catch (error) {
    // Not a repository, no such folder, or no git: the command has no store to print from.
    if (error instanceof GitStoreFailure && NO_STORE.some((text) => error.message.includes(text)))
      return unscanned(null);
    return unscanned("git's object store could not be listed to scan it for secrets");
  }
  const unread: { id: string; size: number }[] = [];
  let unreadBytes = 0;
  for (const line of listed.toString('latin1').split('\n')) {
    const [id, type, sizeText] = line.split(' ');
    if (id === undefined || (type !== 'blob' && type !== 'tree')) continue;
    const known = judged.get(id);
    if (known !== undefined) {
      if (known !== null) return scanned(storeSays(known));
      continue;
    }
    const size = Number(sizeText);
    unread.push({ id, size });
    unreadBytes += size;
    if (unreadBytes > STORE_SCAN_BYTES)
      return unscanned(
        `git's object store is larger than the ${STORE_SCAN_BYTES / MIB} MiB scanned for secrets`,
      );
  }
  // In batches of bounded size: git's output is held in memory whole.
  for (let start = 0; start < unread.length; ) {
    const batch: string[] = [];
    for (let bytes = 0; start < unread.length && bytes < BATCH_BYTES; start++) {
      batch.push(unread[start]!.id);
      bytes += unread[start]!.size;
    }
    let printed: Buffer;
    try {
      ({ stdout: printed } = await git(
        [...gitArgs, 'cat-file', '--batch'],
        cwd,
        STORE_SCAN_BYTES * 2,
        batch,
      ));
    } catch {
      return unscanned("git's object store could not be read to scan it for secrets");
    }
    const reason = judgeBatch(printed);
    if (reason !== null) return scanned(storeSays(reason));
  }
  return scanned(null);
}

const MIB = 1024 * 1024;
/** How many bytes of objects not judged before are read at most; more is counted as unscanned. */
const STORE_SCAN_BYTES = 4 * SECRET_SCAN_BYTES;
/** About how many bytes of objects one `cat-file --batch` prints. */
const BATCH_BYTES = 16 * MIB;
/** A listing of about five million objects. */
const MAX_LISTING_BYTES = 512 * MIB;
const TIMEOUT_MS = 60_000;

/** Verdicts by object id: null for clean, else what the object holds. Bounded: the oldest go first. */
const judged = new Map<string, string | null>();
const MAX_JUDGED = 2_000_000;

function remember(id: string, reason: string | null): void {
  judged.set(id, reason);
  if (judged.size > MAX_JUDGED) {
    const oldest = judged.keys().next().value;
    if (oldest !== undefined) judged.delete(oldest);
  }
}

function storeSays(reason: string): string {
  return `git's object store (its history) ${reason}`;
}

/** `<id> <type> <size>\n<content>\n`, object after object: judges each, returns the first secret. */
function judgeBatch(printed: Buffer): string | null {
  let found: string | null = null;
  for (let at = 0; at < printed.length; ) {
    const end = printed.indexOf(10, at);
    if (end < 0) break;
    const [id, type, sizeText] = printed.toString('latin1', at, end).split(' ');
    if (id === undefined || type === 'missing' || sizeText === undefined) {
      at = end + 1;
      continue;
    }
    const size = Number(sizeText);
    const content = printed.subarray(end + 1, end + 1 + size);
    at = end + 1 + size + 1;
    const reason =
      type === 'tree' ? treeSecretReason(content, id.length / 2) : bytesSecretContentReason(content);
    remember(id, reason);
    found ??= reason;
  }
  return found;
}

/** Why a tree names a file secret by its name: entries are `<mode> <name>\0<binary id>`. */
function treeSecretReason(tree: Buffer, idBytes: number): string | null {
  for (let at = 0; at < tree.length; ) {
    const space = tree.indexOf(32, at);
    const nul = tree.indexOf(0, space + 1);
    if (space < 0 || nul < 0) break;
    const mode = tree.toString('latin1', at, space);
    const name = tree.toString('utf8', space + 1, nul);
    // A folder (40000) or submodule (160000) is no file: only files and symlinks.
    if (!mode.startsWith('4') && !mode.startsWith('16')) {
      const reason = secretNameReason(name);
      if (reason !== null) return `names ${reason}`;
    }
    at = nul + 1 + idBytes;
  }
  return null;
}

class GitStoreFailure extends Error {}

/** What git's failure says when there is no store (spawning in a missing folder fails as ENOENT). */
const NO_GIT = 'git is not installed';
const NO_STORE = ['not a git repository', NO_GIT];

/**
 * git, run on the host the way a checkpoint runs it: no pager, no fsmonitor or other program the
 * repository's config could name (cat-file reads objects only).
 */
function git(args: readonly string[], cwd: string, maxStdoutBytes: number, ids?: readonly string[]) {
  return runGitProcess(args, {
    cwd,
    env: process.env,
    settings: ['core.fsmonitor=false', 'core.hooksPath=/dev/null'],
    input: ids === undefined ? undefined : `${ids.join('\n')}\n`,
    timeoutMs: TIMEOUT_MS,
    maxStdoutBytes,
    failure: (message) => new GitStoreFailure(message),
    missing: NO_GIT,
  });
}
