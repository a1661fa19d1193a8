import { GIT_COMMANDS } from './git-command-names.js';
import { remoteWord, storeCopied } from './git-store-copies.js';
import { type WorktreeWriteCommand, writesStoredFiles } from './git-worktree-writes.js';

/**
 * What a git command prints out of git's object store, read from its words: the history (any stored
 * file, tree or message: `git show`, `git log -p`, `git diff HEAD~1`, `git cat-file -p`), commit and
 * tag messages only (`git log`, `git shortlog`, `git branch -v`), or only the files of the index and
 * HEAD (`git diff`, `git diff --cached`, `git status -v`, `git add -p`), perhaps limited to the paths
 * it names. A subcommand git does not know is an alias (or a `git-NAME` program): its definition is
 * looked up and read in turn (git-store-reason.ts).
 */
export type GitStoreRead =
  | { readonly kind: 'history'; readonly repo: GitRepoWords }
  | { readonly kind: 'messages'; readonly repo: GitRepoWords }
  | {
      readonly kind: 'checkout';
      readonly repo: GitRepoWords;
      /** What it compares, and prints where they differ. */
      readonly compares: readonly CheckoutComparison[];
      /** The paths named (relative to the command's folder); null for every path. */
      readonly paths: readonly string[] | null;
    }
  | {
      readonly kind: 'alias';
      readonly repo: GitRepoWords;
      readonly name: string;
      /** `-c alias.…=…` settings given on the command line: the lookup sees them. */
      readonly settings: readonly string[];
      /** The words after the alias's name. */
      readonly rest: readonly (string | null)[];
    }
  /**
   * It writes stored files of another commit into the work tree (`git checkout HEAD~1`): read by
   * what follows it on the line.
   */
  | { readonly kind: 'writes'; readonly repo: GitRepoWords }
  /** The repository is named by a word only run time knows (`git -C "$R" show`). */
  | { readonly kind: 'unknownRepo' }
  /**
   * A fetch, pull or push through a remote's name or a URL (`''`: the default remote): a copy of a
   * store where the config leads it to a local path (looked up in git-store-reason.ts).
   */
  | {
      readonly kind: 'remote';
      readonly repo: GitRepoWords;
      readonly remote: string;
      readonly pushes: boolean;
    };

/**
 * Two of the work tree, the index and HEAD: `git diff` (the work tree against the index), `git diff
 * --cached` (the index against HEAD), `git diff HEAD` (the work tree against HEAD).
 */
export type CheckoutComparison = 'worktree-index' | 'index-head' | 'worktree-head';

/** Which repository git works in: global options and `GIT_*` variables, for the scan's own git. */
export interface GitRepoWords {
  /** `-C dir`, `--git-dir=…`, `--work-tree=…`, as the command gives them. */
  readonly args: readonly string[];
  /** `GIT_DIR=…` and the other variables that say where the repository and its objects are. */
  readonly env: Readonly<Record<string, string>>;
}

/** A word's value, null when only run time knows it (a variable, a substitution, xargs's input). */
export type GitWord = string | null;

/**
 * Reads `words` (a command's, wrappers removed; assignments before it in `assigned`): what it prints
 * of git's store, or null when it runs no git or a git command that prints nothing stored.
 * `isPath(word)`: the word names an existing file or folder in the command's folder (git takes it
 * as a path, not a revision).
 */
export function gitStoreRead(
  words: readonly GitWord[],
  assigned: readonly string[],
  isPath: (word: string, repo: GitRepoWords) => boolean,
): GitStoreRead | null {
  let i = 0;
  const env: Record<string, string> = {};
  const assign = (word: string) => {
    const at = word.indexOf('=');
    const name = word.slice(0, at);
    if (REPO_VARIABLES.has(name)) env[name] = word.slice(at + 1);
  };
  for (const word of assigned) assign(word);
  let unknownRepo = false;
  const skipAssignments = () => {
    for (; i < words.length; i++) {
      const word = words[i];
      if (word === undefined || word === null || !ASSIGNMENT.test(word)) return;
      if (UNKNOWN_VALUE.test(word)) unknownRepo ||= REPO_VARIABLES.has(word.slice(0, word.indexOf('=')));
      assign(word);
    }
  };
  skipAssignments();
  // `env git …`, `command git …`: the program is the next word.
  while (i < words.length && (words[i] === 'env' || words[i] === 'command' || words[i] === 'exec')) {
    i++;
    skipAssignments();
  }
  const program = words[i];
  if (program === undefined || program === null || (program !== 'git' && !program.endsWith('/git')))
    return null;
  for (const value of Object.values(env)) unknownRepo ||= UNKNOWN_VALUE.test(value);
  const args: string[] = [];
  const settings: string[] = [];
  for (i++; i < words.length; i++) {
    const word = words[i];
    if (word === undefined || word === null || !word.startsWith('-')) break;
    const [name] = word.split('=', 1) as [string];
    const valued = VALUED_GLOBALS.has(word) && i + 1 < words.length;
    const value = valued ? words[i + 1] : word.includes('=') ? word.slice(name.length + 1) : undefined;
    if (word === '-C' && valued) {
      if (value === null || UNKNOWN_VALUE.test(value!)) unknownRepo = true;
      else args.push('-C', value!);
    } else if (name === '--git-dir' || name === '--work-tree') {
      if (value === null || (value !== undefined && UNKNOWN_VALUE.test(value))) unknownRepo = true;
      else args.push(value === undefined ? word : `${name}=${value}`);
    } else if (word === '-c' && valued && typeof value === 'string' && /^alias\./i.test(value))
      settings.push(value);
    if (valued) i++;
  }
  if (unknownRepo) return { kind: 'unknownRepo' };
  const repo: GitRepoWords = { args, env };
  const subcommand = words[i];
  // `git $cmd …`: any command at all.
  if (subcommand === null) return { kind: 'history', repo };
  if (subcommand === undefined) return null;
  const rest = words.slice(i + 1);
  if (HISTORY_PRINTING.has(subcommand)) return { kind: 'history', repo };
  switch (subcommand) {
    case 'diff':
    case 'difftool':
      return diffRead(rest, repo, isPath);
    case 'log':
    case 'reflog':
    case 'whatchanged':
      return rest.some(isPatchOption) ? { kind: 'history', repo } : { kind: 'messages', repo };
    case 'stash':
      return stashRead(rest, repo, isPath);
    case 'diff-files':
      // The index's files against the work tree's, printed only with a patch option.
      return rest.some(isPatchOption) ? interactiveRead(rest, repo, isPath, WORKTREE_INDEX) : null;
    case 'clone':
    case 'fetch':
    case 'pull':
    case 'push':
    case 'worktree': {
      const copied = storeCopied(subcommand, rest, (word) => isPath(word, repo));
      const remote = copied === null ? remoteWord(subcommand, rest) : undefined;
      if (remote === null) return { kind: 'unknownRepo' };
      if (remote !== undefined) return { kind: 'remote', repo, remote, pushes: subcommand === 'push' };
      return storeCopyRead(copied, repo);
    }
    case 'status':
    case 'commit': {
      // The diff of the index against HEAD (and, with -vv, of the work tree against the index).
      const verbose = rest.filter((word) => word !== null && VERBOSE.test(word));
      if (verbose.length === 0) return null;
      const twice = verbose.length > 1 || verbose[0] === '-vv';
      return { kind: 'checkout', repo, compares: twice ? BOTH : INDEX_HEAD, paths: null };
    }
    case 'add':
    case 'checkout':
    case 'restore':
    case 'reset':
      if (rest.some((word) => word !== null && INTERACTIVE.test(word)))
        return interactiveRead(rest, repo, isPath, subcommand === 'reset' ? INDEX_HEAD : WORKTREE_INDEX);
      return writesRead(subcommand, rest, repo, isPath);
    case 'switch':
    case 'merge':
    case 'cherry-pick':
    case 'revert':
    case 'rebase':
    case 'read-tree':
    case 'bisect':
      return writesRead(subcommand, rest, repo, isPath);
    case 'branch':
      return rest.some((word) => word === null || BRANCH_MESSAGES.test(word))
        ? { kind: 'messages', repo }
        : null;
    case 'tag':
      return rest.some((word) => word === null || TAG_MESSAGES.test(word))
        ? { kind: 'messages', repo }
        : null;
    case 'rev-list':
      return rest.some((word) => word === null || REV_LIST_MESSAGES.test(word))
        ? { kind: 'messages', repo }
        : null;
    default:
      if (MESSAGE_PRINTING.has(subcommand)) return { kind: 'messages', repo };
      if (subcommand.startsWith('-') || GIT_COMMANDS.has(subcommand)) return null;
      return { kind: 'alias', repo, name: subcommand, settings, rest };
  }
}

/**
 * git's commands that print stored files or trees (and the messages with them): what a command
 * reads through them is git's object store, not a file any of its words names.
 */
const HISTORY_PRINTING: ReadonlySet<string> = new Set([
  'show',
  'diff-tree',
  'diff-index',
  'cat-file',
  'grep',
  'archive',
  'format-patch',
  'bundle',
  'fast-export',
  'blame',
  'annotate',
  'range-diff',
  'unpack-file',
  'notes',
  'request-pull',
]);

/** Commands that print commit or tag messages (subjects at least), never a stored file. */
const MESSAGE_PRINTING: ReadonlySet<string> = new Set(['shortlog', 'show-branch', 'cherry', 'for-each-ref']);
const BRANCH_MESSAGES = /^(?:-[a-zA-Z]*v[a-zA-Z]*|--verbose|--format.*)$/;
const TAG_MESSAGES = /^(?:-n\d*|--format.*)$/;
const REV_LIST_MESSAGES = /^(?:--format.*|--pretty.*|--header|--oneline)$/;
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

function isPatchOption(word: GitWord): boolean {
  // A word only run time knows may be -p.
  return word === null || (word.startsWith('-') && PATCH_OPTION.test(word));
}

/**
 * `git diff`: of the work tree against the index (no revision), the index against HEAD (`--cached`),
 * the work tree against HEAD (`HEAD`): only those files are printed. Any other revision, or a word
 * that may be one, prints the history; `--no-index` compares two files and prints no stored one.
 */
function diffRead(
  rest: readonly GitWord[],
  repo: GitRepoWords,
  isPath: (word: string, repo: GitRepoWords) => boolean,
): GitStoreRead | null {
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

/** A command writing stored files into the work tree (git-worktree-writes.ts). */
function writesRead(
  subcommand: WorktreeWriteCommand,
  rest: readonly GitWord[],
  repo: GitRepoWords,
  isPath: (word: string, repo: GitRepoWords) => boolean,
): GitStoreRead | null {
  return writesStoredFiles(subcommand, rest, (word) => isPath(word, repo)) ? { kind: 'writes', repo } : null;
}

/** A copy of a store (git-store-copies.ts) as a read of its history: the source's, from where git runs. */
function storeCopyRead(copied: ReturnType<typeof storeCopied>, repo: GitRepoWords): GitStoreRead | null {
  if (copied === null) return null;
  switch (copied.store) {
    case 'this':
      return { kind: 'history', repo };
    case 'unknown':
      return { kind: 'unknownRepo' };
    case 'path': {
      const here: string[] = [];
      for (let i = 0; i + 1 < repo.args.length; i++)
        if (repo.args[i] === '-C') here.push('-C', repo.args[++i]!);
      return { kind: 'history', repo: { args: [...here, '-C', copied.path], env: {} } };
    }
  }
}

/** `git stash show` prints a stash's commits (history); `git stash -p` the work tree against HEAD. */
function stashRead(
  rest: readonly GitWord[],
  repo: GitRepoWords,
  isPath: (word: string, repo: GitRepoWords) => boolean,
): GitStoreRead | null {
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
  isPath: (word: string, repo: GitRepoWords) => boolean,
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

/** A value the shell decides at run time (its words are given as written when not null). */
const UNKNOWN_VALUE = /[$`]/;

/** `NAME=value` before a command. */
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** Variables that say which repository, which objects or which index git reads. */
const REPO_VARIABLES: ReadonlySet<string> = new Set([
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_COMMON_DIR',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_INDEX_FILE',
  'GIT_CONFIG',
  'GIT_CONFIG_GLOBAL',
  'GIT_CONFIG_SYSTEM',
  'GIT_CONFIG_NOSYSTEM',
  'GIT_CONFIG_PARAMETERS',
  'GIT_CONFIG_COUNT',
  'GIT_NAMESPACE',
  'GIT_CEILING_DIRECTORIES',
  'GIT_DISCOVERY_ACROSS_FILESYSTEM',
]);

/** git's global options that take the next word as their value. */
const VALUED_GLOBALS: ReadonlySet<string> = new Set([
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--exec-path',
  '--config-env',
  '--super-prefix',
  '--list-cmds',
]);
