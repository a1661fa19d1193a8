import type { CheckoutComparison, GitRepoWords, GitStoreRead, GitWord } from './git-store-read-kinds.js';
import { writesRead } from './git-worktree-writes.js';

// What git commands that print a diff read of git's store (git-store-reads.ts reads the command and
// its repository; these read the words after the subcommand): the work tree, the index and HEAD
// only (`git diff`, `git diff --cached`, `git status -v`, `git add -p`, `git stash -p`), perhaps
// limited to the paths named, or the history (a revision named, a patch option of `git log`).

/** `isPath(word, repo)`: the word names an existing file or folder where git runs (not a revision). */
type IsPath = (word: string, repo: GitRepoWords) => boolean;

const VERBOSE = /^(?:-v+|--verbose)$/;
const WORKTREE_INDEX: readonly CheckoutComparison[] = ['worktree-index'];
const INDEX_HEAD: readonly CheckoutComparison[] = ['index-head'];
const WORKTREE_HEAD: readonly CheckoutComparison[] = ['worktree-head'];
const BOTH: readonly CheckoutComparison[] = ['index-head', 'worktree-index'];
const INTERACTIVE = /^(?:-p|--patch|-i|--interactive)$/;

/**
 * The diff options that make git log (and the commands that take its options) print a patch (git
 * 2.39, tried: `--binary`, `--cc`, `-c`, `--remerge-diff` imply one), and a cluster of short options
 * with `p`, `u` or `U` in it (`-sp`, `-pW`; git takes clusters; an option with a value, `-Sup`, is
 * taken as one too). git takes no abbreviation of these long options.
 */
const PATCH_OPTION =
  /^(?:-[A-Za-z]*[puU][A-Za-z0-9]*|--patch.*|--unified(?:=.*)?|-L.*|--word-diff.*|--color-words.*|--binary|--cc|-c|-m|--dd|--remerge-diff|--diff-merges.*|-W|--function-context)$/;

/** A word that makes `git log` (and the commands that take its options) print a patch. */
export function isPatchOption(word: GitWord): boolean {
  // A word only run time knows may be -p.
  return word === null || (word.startsWith('-') && PATCH_OPTION.test(word));
}

/**
 * `git diff`: of the work tree against the index (no revision), the index against HEAD (`--cached`),
 * the work tree against HEAD (`HEAD`): only those files are printed. Any other revision, or a word
 * that may be one, prints the history; `--no-index` compares two files and prints no stored one.
 */
export function diffRead(rest: readonly GitWord[], repo: GitRepoWords, isPath: IsPath): GitStoreRead | null {
  let cached = false;
  let head = false;
  const paths: string[] = [];
  let everyPath = false;
  for (let k = 0; k < rest.length; k++) {
    const word = rest[k]!;
    if (word === '--') {
      for (const path of rest.slice(k + 1)) {
        if (path === null || PATHSPEC_MAGIC.test(path)) everyPath = true;
        else paths.push(path);
      }
      break;
    }
    if (word === null) return { kind: 'history', repo };
    if (word === '--no-index') return null;
    if (word === '--cached' || word === '--staged') cached = true;
    else if (word === '--merge-base') return { kind: 'history', repo };
    else if (word.startsWith('-')) continue;
    else if (word === 'HEAD' || word === '@') head = true;
    else if (!PATHSPEC_MAGIC.test(word) && isPath(word, repo)) paths.push(word);
    else return { kind: 'history', repo };
  }
  return {
    kind: 'checkout',
    repo,
    compares: cached ? INDEX_HEAD : head ? WORKTREE_HEAD : WORKTREE_INDEX,
    paths: everyPath || paths.length === 0 ? null : paths,
  };
}

/** `git status -v`, `git commit -v`: the index against HEAD (with -vv, the work tree against the index too). */
export function verboseRead(rest: readonly GitWord[], repo: GitRepoWords): GitStoreRead | null {
  const verbose = rest.filter((word) => word !== null && VERBOSE.test(word));
  if (verbose.length === 0) return null;
  const twice = verbose.length > 1 || verbose[0] === '-vv';
  return { kind: 'checkout', repo, compares: twice ? BOTH : INDEX_HEAD, paths: null };
}

/** `git diff-files`: the index's files against the work tree's, printed only with a patch option. */
export function diffFilesRead(
  rest: readonly GitWord[],
  repo: GitRepoWords,
  isPath: IsPath,
): GitStoreRead | null {
  return rest.some(isPatchOption) ? interactiveRead(rest, repo, isPath, WORKTREE_INDEX) : null;
}

/**
 * `git add -p`, `checkout -p`, `restore -p`, `reset -p` (the index against HEAD) print hunks; null
 * for their other forms (read as writes, git-worktree-writes.ts).
 */
export function hunksRead(
  subcommand: 'add' | 'checkout' | 'restore' | 'reset',
  rest: readonly GitWord[],
  repo: GitRepoWords,
  isPath: IsPath,
): GitStoreRead | null {
  if (!rest.some((word) => word !== null && INTERACTIVE.test(word))) return null;
  return interactiveRead(rest, repo, isPath, subcommand === 'reset' ? INDEX_HEAD : WORKTREE_INDEX);
}

/** `git stash show` prints a stash's commits (history); `git stash -p` the work tree against HEAD. */
export function stashRead(rest: readonly GitWord[], repo: GitRepoWords, isPath: IsPath): GitStoreRead | null {
  const action = rest[0];
  if (action === null || action === 'show') return { kind: 'history', repo };
  // `stash list` takes git log's options: `-p` prints each stash's files.
  if (action === 'list')
    return rest.some(isPatchOption) ? { kind: 'history', repo } : { kind: 'messages', repo };
  if (action !== undefined && action !== 'push' && action !== 'save' && !action.startsWith('-'))
    return writesRead('stash', rest, repo, isPath);
  return rest.some((word) => word !== null && INTERACTIVE.test(word))
    ? interactiveRead(rest.slice(action?.startsWith('-') ? 0 : 1), repo, isPath, WORKTREE_HEAD)
    : null;
}

/**
 * `git add -p`, `reset -p`, `checkout -p`, `restore -p`: hunks of the work tree, the index and HEAD;
 * with a revision (`checkout -p main`, `restore -p --source=…`), the history.
 */
function interactiveRead(
  rest: readonly GitWord[],
  repo: GitRepoWords,
  isPath: IsPath,
  compares: readonly CheckoutComparison[],
): GitStoreRead {
  const paths: string[] = [];
  let everyPath = false;
  for (let k = 0; k < rest.length; k++) {
    const word = rest[k]!;
    if (word === null || word.startsWith('--source') || word === '-s') return { kind: 'history', repo };
    if (word === '--') {
      for (const path of rest.slice(k + 1)) {
        if (path === null || PATHSPEC_MAGIC.test(path)) everyPath = true;
        else paths.push(path);
      }
      break;
    }
    if (word.startsWith('-') || word === 'HEAD' || word === '@') continue;
    if (!PATHSPEC_MAGIC.test(word) && isPath(word, repo)) paths.push(word);
    else return { kind: 'history', repo };
  }
  return { kind: 'checkout', repo, compares, paths: everyPath || paths.length === 0 ? null : paths };
}

/** A pathspec git reads as a pattern or with magic (`*.ts`, `:(glob)…`, `:/`): it may match any path. */
const PATHSPEC_MAGIC = /^:|[*?[\\]/;
