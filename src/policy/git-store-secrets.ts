import { runGitProcess } from '../util/git-process.js';
import { isSameSignature, storeStateOf } from './git-store-signature.js';
import { gitRepoPlace } from './git-store-state.js';
import { bytesSecretContentReason, SECRET_SCAN_BYTES } from './secret-content.js';
import { secretNameReason } from './secret-file-names.js';

/**
 * What git's object store of a repository holds that is secret: `files`, why a stored file or tree
 * is (a blob whose content matches the credential table, secret-content.ts, or a tree that names a
 * file secret by its name: a `.env` committed once); `messages`, why a commit or tag message is (a
 * token pasted in one). A command that prints stored blobs (`git show HEAD:notes`, `git log -p`,
 * `git cat-file -p <id>`) hands over what the history holds, deleted files and all, and names no
 * file the other checks can look at; `git log` prints the messages. Each object is judged once per
 * process, by its id (its content's hash: the same id is the same content in any repository); only
 * new objects are read. When the store cannot be scanned, both say why.
 */
export interface GitStoreSecrets {
  readonly files: string | null;
  readonly messages: string | null;
}

/** Why the store holds a secret of any kind (a file first), or null. */
export async function gitStoreSecretReason(gitArgs: readonly string[], cwd: string): Promise<string | null> {
  const found = await gitStoreSecrets(gitArgs, cwd);
  return found.files ?? found.messages;
}

/**
 * The store's secrets; `env`: variables the command gives git that say where its repository or
 * objects are (`GIT_DIR=…`), given to the scan's git too.
 */
export async function gitStoreSecrets(
  gitArgs: readonly string[],
  cwd: string,
  env: Readonly<Record<string, string>> = NO_ENV,
): Promise<GitStoreSecrets> {
  return gitStoreSecretsNow(gitArgs, cwd, env);
}

/**
 * The same, with no promise when nothing is to be read: no repository there, or a store unchanged
 * since its last scan (a decision then waits on no microtask for it).
 */
export function gitStoreSecretsNow(
  gitArgs: readonly string[],
  cwd: string,
  env: Readonly<Record<string, string>> = NO_ENV,
): GitStoreSecrets | Promise<GitStoreSecrets> {
  const place = env === NO_ENV || Object.keys(env).length === 0 ? gitRepoPlace(gitArgs, cwd) : null;
  // No repository there (git would find none either): no store, and no git process to say so.
  if (place === 'none') return NO_SECRETS;
  // Unchanged since the last scan (no object added or removed): the same answer, without git.
  const state = place === null ? null : storeStateOf(place);
  const known = state === null ? undefined : storeVerdicts.get(state.objects);
  if (state !== null && known !== undefined && isSameSignature(known.signature, state.signature))
    return known.secrets;
  return scanStore(gitArgs, cwd, env).then((found) => {
    if (state !== null && found.scanned) {
      if (storeVerdicts.size >= MAX_STORES) storeVerdicts.clear();
      storeVerdicts.set(state.objects, { signature: state.signature, secrets: found.secrets });
    }
    return found.secrets;
  });
}

/**
 * What the scan found an object holds, by its id: a reason, null for nothing, undefined when it was
 * not judged (a store not scanned in this process, or an object of a store too large to scan).
 */
export function storedObjectReason(id: string): string | null | undefined {
  return judged.get(id);
}

/**
 * Judges the objects of `ids` not judged before (the index's and HEAD's files, when the store scan
 * stopped at its first secret file), in the repository git finds from `cwd`; one that cannot be
 * read stays unjudged.
 */
export async function judgeStoredObjects(cwd: string, ids: readonly string[]): Promise<void> {
  const unread = ids.filter((id) => !judged.has(id));
  for (let start = 0; start < unread.length; start += JUDGE_BATCH) {
    let printed: Buffer;
    try {
      ({ stdout: printed } = await git(
        ['cat-file', '--batch'],
        cwd,
        NO_ENV,
        STORE_SCAN_BYTES * 2,
        unread.slice(start, start + JUDGE_BATCH),
      ));
    } catch {
      return;
    }
    judgeBatch(printed, new FoundSecrets());
  }
}

/** Ids per `cat-file --batch` of judgeStoredObjects. */
const JUDGE_BATCH = 2_000;

const NO_ENV: Readonly<Record<string, string>> = Object.freeze({});
const NO_SECRETS: GitStoreSecrets = Object.freeze({ files: null, messages: null });

/** The last verdict on each store (by its objects folder), with the state it was given for. */
const storeVerdicts = new Map<string, { signature: BigInt64Array; secrets: GitStoreSecrets }>();
const MAX_STORES = 64;

/** `scanned`: the verdict came from the objects themselves or their size, not from a failure to list or read them. */
async function scanStore(
  gitArgs: readonly string[],
  cwd: string,
  env: Readonly<Record<string, string>>,
): Promise<{ secrets: GitStoreSecrets; scanned: boolean }> {
  const unscanned = (reason: string | null) => ({
    secrets: { files: reason, messages: reason },
    scanned: false,
  });
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
      env,
      MAX_LISTING_BYTES,
    ));
  } catch (error) {
    // Not a repository, no such folder, or no git: the command has no store to print from.
    if (error instanceof GitStoreFailure && NO_STORE.some((text) => error.message.includes(text)))
      return unscanned(null);
    return unscanned("git's object store could not be listed to scan it for secrets");
  }
  // Every commit and tag is judged (they are small: a message is told from a file only so), then
  // files and trees up to the first secret one: the index's and HEAD's files, when a command prints
  // only those, are judged on their own (judgeStoredObjects, git-checkout-secrets.ts).
  const found = new FoundSecrets();
  const messages: { id: string; size: number }[] = [];
  const files: { id: string; size: number }[] = [];
  for (const line of listed.toString('latin1').split('\n')) {
    const [id, type, sizeText] = line.split(' ');
    if (id === undefined || type === undefined || !JUDGED_TYPES.has(type)) continue;
    const known = judged.get(id);
    if (known !== undefined) found.add(type, known);
    else (type === 'commit' || type === 'tag' ? messages : files).push({ id, size: Number(sizeText) });
  }
  const unread = found.files === null ? messages.concat(files) : messages;
  let unreadBytes = 0;
  for (const { size } of unread) unreadBytes += size;
  if (unreadBytes > STORE_SCAN_BYTES)
    return unscanned(
      `git's object store is larger than the ${STORE_SCAN_BYTES / MIB} MiB scanned for secrets`,
    );
  // In batches of bounded size: git's output is held in memory whole.
  for (let start = 0; start < unread.length; ) {
    if (start >= messages.length && found.files !== null) break;
    const batch: string[] = [];
    for (let bytes = 0; start < unread.length && bytes < BATCH_BYTES; start++) {
      batch.push(unread[start]!.id);
      bytes += unread[start]!.size;
      // The messages' batch ends with them: the files after it may not be needed.
      if (start + 1 === messages.length) {
        start++;
        break;
      }
    }
    let printed: Buffer;
    try {
      ({ stdout: printed } = await git(
        [...gitArgs, 'cat-file', '--batch'],
        cwd,
        env,
        STORE_SCAN_BYTES * 2,
        batch,
      ));
    } catch {
      return unscanned("git's object store could not be read to scan it for secrets");
    }
    judgeBatch(printed, found);
  }
  return {
    secrets: {
      files: found.files === null ? null : `git's object store (its history) ${found.files}`,
      messages: found.messages === null ? null : `a commit or tag message in git's history ${found.messages}`,
    },
    scanned: true,
  };
}

/** Files (blobs), trees, and what holds messages (commits, annotated tags). */
const JUDGED_TYPES: ReadonlySet<string> = new Set(['blob', 'tree', 'commit', 'tag']);

/** The first secret of a file or tree, and of a message. */
class FoundSecrets {
  files: string | null = null;
  messages: string | null = null;

  add(type: string, reason: string | null): void {
    if (reason === null) return;
    if (type === 'commit' || type === 'tag') this.messages ??= reason;
    else this.files ??= reason;
  }
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

/** `<id> <type> <size>\n<content>\n`, object after object: judges and remembers each. */
function judgeBatch(printed: Buffer, found: FoundSecrets): void {
  for (let at = 0; at < printed.length; ) {
    const end = printed.indexOf(10, at);
    if (end < 0) break;
    const [id, type, sizeText] = printed.toString('latin1', at, end).split(' ');
    if (id === undefined || type === undefined || type === 'missing' || sizeText === undefined) {
      at = end + 1;
      continue;
    }
    const size = Number(sizeText);
    const content = printed.subarray(end + 1, end + 1 + size);
    at = end + 1 + size + 1;
    const reason =
      type === 'tree' ? treeSecretReason(content, id.length / 2) : bytesSecretContentReason(content);
    remember(id, reason);
    found.add(type, reason);
  }
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
function git(
  args: readonly string[],
  cwd: string,
  env: Readonly<Record<string, string>>,
  maxStdoutBytes: number,
  ids?: readonly string[],
) {
  return runGitProcess(args, {
    cwd,
    env: env === NO_ENV ? process.env : { ...process.env, ...env },
    settings: ['core.fsmonitor=false', 'core.hooksPath=/dev/null'],
    input: ids === undefined ? undefined : `${ids.join('\n')}\n`,
    timeoutMs: TIMEOUT_MS,
    maxStdoutBytes,
    failure: (message) => new GitStoreFailure(message),
    missing: NO_GIT,
  });
}
