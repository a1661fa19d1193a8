/** A word of a git command, null when only run time knows it (as git-store-read-kinds.ts's GitWord). */
type GitWord = string | null;

/**
 * Which store a command copies: the one git works in (`this`), the one at a local path, or one only
 * run time names.
 */
export type StoreCopied =
  | { readonly store: 'this' }
  | { readonly store: 'path'; readonly path: string }
  | { readonly store: 'unknown' };

/** The git commands that copy a store's objects or files to another place on this machine. */
export type StoreCopyCommand = 'clone' | 'fetch' | 'pull' | 'push' | 'worktree';

/**
 * What a git command copies of a store to another place on this machine, as a read of that store's
 * history: a later command reads the copy from a repository that did not exist when the command
 * was judged (`git clone . /tmp/c && cd /tmp/c && git checkout HEAD~1 && cat notes`), so the copy
 * is the read. `git clone SRC`, `git fetch SRC`, `git pull SRC` copy SRC's store (a local path:
 * a remote's store is no file of this machine, and a remote's name is followed no further); `git
 * push DEST` to a local path copies this one's, `git worktree add DIR REV` checks out its files in
 * another folder. `isPath(word)`: the word names an existing file or folder where git runs.
 */
export function storeCopied(
  subcommand: StoreCopyCommand,
  rest: readonly GitWord[],
  isPath: (word: string) => boolean,
): StoreCopied | null {
  switch (subcommand) {
    case 'clone':
    case 'fetch':
    case 'pull': {
      const source = firstOperand(rest, subcommand === 'clone' ? CLONE_VALUED : FETCH_VALUED);
      if (source === undefined) return null;
      if (source === null || UNKNOWN_VALUE.test(source)) return UNKNOWN;
      const path = localPath(source, subcommand === 'clone', isPath);
      return path === null ? null : { store: 'path', path };
    }
    case 'push': {
      const destination = pushDestination(rest);
      if (destination === undefined) return null;
      if (destination === null || UNKNOWN_VALUE.test(destination)) return THIS;
      return localPath(destination, false, isPath) === null ? null : THIS;
    }
    case 'worktree':
      return rest[0] === null || rest[0] === 'add' ? THIS : null;
  }
}

/**
 * The first word that is no option (nor an option's value), null when a word only run time knows
 * comes first (it may be the operand), undefined when there is none.
 */
function firstOperand(rest: readonly GitWord[], valued: ReadonlySet<string>): GitWord | undefined {
  for (let k = 0; k < rest.length; k++) {
    const word = rest[k]!;
    if (word === null) return null;
    if (word === '--') return rest[k + 1];
    if (!word.startsWith('-')) return word;
    if (valued.has(word)) k++;
  }
  return undefined;
}

/** Where git push pushes: `--repo=…`, `--repo …`, else its first operand. */
function pushDestination(rest: readonly GitWord[]): GitWord | undefined {
  for (let k = 0; k < rest.length; k++) {
    const word = rest[k];
    if (word === '--repo') return rest[k + 1];
    if (typeof word === 'string' && word.startsWith('--repo=')) return word.slice('--repo='.length);
  }
  return firstOperand(rest, PUSH_VALUED);
}

/**
 * The local path a repository word names, or null for a URL, `host:path`, or (for fetch and push) a
 * name with no `/` naming nothing here (a remote's name). git's rule: a `:` before any `/` is a remote.
 */
function localPath(word: string, clone: boolean, isPath: (word: string) => boolean): string | null {
  if (word.startsWith('file://')) return word.slice('file://'.length);
  if (URL_SCHEME.test(word)) return null;
  const colon = word.indexOf(':');
  const slash = word.indexOf('/');
  if (colon > 0 && (slash < 0 || colon < slash)) return null;
  // A remote's name has no `/` (a path to a repository not made yet may be pushed to once it is).
  return clone || word.includes('/') || isPath(word) ? word : null;
}

/**
 * The repository a fetch, pull or push names where storeCopied found no local path: a remote's name
 * or a URL, which the config may lead to a local path (`remote.NAME.url`, `url.BASE.insteadOf`);
 * '' for the default remote (no operand); null when run time names it; undefined for the others.
 */
export function remoteWord(subcommand: StoreCopyCommand, rest: readonly GitWord[]): GitWord | undefined {
  if (subcommand === 'clone' || subcommand === 'worktree') return undefined;
  const word = subcommand === 'push' ? pushDestination(rest) : firstOperand(rest, FETCH_VALUED);
  if (word === undefined) return '';
  return word === null || UNKNOWN_VALUE.test(word) ? null : word;
}

/** The local path a URL git resolved names (`../other`, `file:///srv/r.git`), or null for a remote host. */
export function localUrlPath(url: string): string | null {
  return localPath(url, true, () => true);
}

const THIS: StoreCopied = { store: 'this' };
const UNKNOWN: StoreCopied = { store: 'unknown' };

/** A word the shell makes at run time. */
const UNKNOWN_VALUE = /[$`]/;

const URL_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

/** git clone's options that take the next word as their value. */
const CLONE_VALUED: ReadonlySet<string> = new Set(
  (
    '-o -b -u -c -j --origin --branch --upload-pack --template --reference --reference-if-able ' +
    '--separate-git-dir --depth --shallow-since --shallow-exclude --config --jobs --filter ' +
    '--server-option --bundle-uri --ref-format'
  ).split(' '),
);

/** git fetch's and pull's options that take the next word as their value. */
const FETCH_VALUED: ReadonlySet<string> = new Set(
  (
    '-j -o -s -X --depth --deepen --shallow-since --shallow-exclude --negotiation-tip --upload-pack ' +
    '--jobs --server-option --recurse-submodules-default --refmap --filter --strategy --strategy-option'
  ).split(' '),
);

/** git push's options that take the next word as their value. */
const PUSH_VALUED: ReadonlySet<string> = new Set([
  '-o',
  '--push-option',
  '--receive-pack',
  '--exec',
  '--repo',
]);
