import type { GitRepoWords } from './git-store-read-kinds.js';
import { gitStoreHistoryReason } from './git-store-reason.js';

/**
 * Why a part that runs no git reads a git store's stored files through a word naming its objects or
 * its git folder (git-object-words.ts), or null; a promise when the store is to be scanned.
 */
export function objectStoreReason(
  words: readonly string[],
  folders: readonly string[],
  unknownFolder: string | null,
): string | null | Promise<string | null> {
  for (const word of words) {
    const repo = gitStoreNamedBy(word);
    if (repo === null) continue;
    if (repo === 'unknown' || unknownFolder !== null)
      return `it reads git's stored files of a repository only run time names (${word.length > SHOWN_CHARS ? `${word.slice(0, SHOWN_CHARS)}…` : word})`;
    const reasons = folders.map((folder) => gitStoreHistoryReason(repo, folder));
    const ready = reasons.find((reason) => typeof reason === 'string');
    if (ready !== undefined) return ready;
    const pending = reasons.filter((reason) => reason !== null);
    if (pending.length === 0) continue;
    return Promise.all(pending).then((found) => found.find((r) => r !== null) ?? null);
  }
  return null;
}

/** How much of a word a reason quotes. */
const SHOWN_CHARS = 120;

/**
 * The git store a word of a command that runs no git names: its object store or its whole git
 * folder (`python3 -c "…glob('.git/objects/??/*')…"`, `zlib-flate -uncompress < .git/objects/ab/…`,
 * `cp -r sub/.git /tmp/x`, `tar c repo.git`). Any program can inflate git's objects, so a word naming
 * them reads every stored file as `git show` would. A name a program makes at run time (`'.g' +
 * 'it'`) is past what words can tell. 'unknown' when the folder is only known at run time (`$R/.git`).
 */
function gitStoreNamedBy(word: string): GitRepoWords | 'unknown' | null {
  // One text search for most words.
  if (!word.includes('.git') && !word.includes('objects/')) return null;
  const found = GIT_FOLDER.exec(word);
  if (found === null) return LOOSE_STORE.test(word) ? HERE : null;
  const prefix = found[1] ?? '';
  if (UNKNOWN.test(prefix)) return 'unknown';
  // `P/.git` is the git folder of the repository at `P`; `P/name.git` a bare repository.
  if (found[2] === '.git') return prefix === '' ? HERE : { args: ['-C', prefix], env: {} };
  return { args: ['-C', `${prefix}${found[2]}`], env: {} };
}

/** The repository git finds from the command's folder. */
const HERE: GitRepoWords = { args: [], env: {} };

/**
 * A git folder named by a path, whole or its object stores (`.git`, `.git/*`, `sub/.git/objects/…`,
 * `.git/modules/m`, `repo.git/objects`; not `.git/HEAD` or `.git/hooks`): the path before it, and
 * its name; bare `name.git` only when its objects are named (a `x.git` word is mostly no repository).
 */
const GIT_FOLDER =
  /(?:^|[\s'"`=(,;:<>|&[{])([^\s'"`=(,;:<>|&[{]*\/)?(\.git|[^\s'"`=(,;:<>|&[{/]+\.git(?=\/objects))(?=\/(?:objects|modules)(?:$|[/\s'"`),;\]}*?])|\/?(?:$|[\s'"`),;\]}*]))/;

/** An object store named without its git folder (`objects/pack/…`, `objects/??/*` in a git folder). */
const LOOSE_STORE = /(?:^|[^\w.-])objects\/(?:pack|info|\?\?|[0-9a-f]{2}(?:\/|$))/;

/** A path only run time knows (a variable, a substitution, a home). */
const UNKNOWN = /[$`~]/;
