/**
 * git's commands that print the content of stored blobs (a file as committed, the history's
 * patches, an object by its id): what a command reads through them is git's object store, not a
 * file any of its words names. `log`, `reflog` and `whatchanged` only with a patch option; `stash`
 * only `show`.
 */
const BLOB_PRINTING: ReadonlySet<string> = new Set([
  'show',
  'diff',
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
  'difftool',
  'notes',
]);
const WITH_PATCH_OPTION: ReadonlySet<string> = new Set(['log', 'reflog', 'whatchanged']);
const PATCH_OPTION =
  /^(?:-p|-u|--patch|--patch-with-stat|--patch-with-raw|-U\d*|--unified(?:=.*)?|-L.*|--word-diff.*|--cc|-c|-m)$/;

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
]);

/** `NAME=value` before a command. */
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/**
 * When a command part's words run git to print stored blobs: the global options that say which
 * repository (`-C dir`, `--git-dir=…`, `--work-tree=…`), to be given to the scan's own git; else
 * null. `-c` settings are not passed on (one may name a program).
 */
export function gitBlobReadRepoArgs(words: readonly string[]): string[] | null {
  let i = 0;
  while (i < words.length && words[i]!.includes('=') && ASSIGNMENT.test(words[i]!)) i++;
  // `env git …`, `command git …`: the program is the next word.
  while (i < words.length && (words[i] === 'env' || words[i] === 'command' || words[i] === 'exec')) i++;
  const program = words[i];
  if (program === undefined || (program !== 'git' && !program.endsWith('/git'))) return null;
  const repo: string[] = [];
  for (i++; i < words.length; i++) {
    const word = words[i]!;
    if (!word.startsWith('-')) break;
    const [name] = word.split('=', 1) as [string];
    const valued = VALUED_GLOBALS.has(word) && i + 1 < words.length;
    if (word === '-C' && valued) repo.push('-C', words[i + 1]!);
    else if (name === '--git-dir' || name === '--work-tree')
      repo.push(valued ? `${word}=${words[i + 1]}` : word);
    if (valued) i++;
  }
  const subcommand = words[i];
  if (subcommand === undefined) return null;
  if (BLOB_PRINTING.has(subcommand)) return repo;
  if (subcommand === 'stash' && words[i + 1] === 'show') return repo;
  if (!WITH_PATCH_OPTION.has(subcommand)) return null;
  for (let k = i + 1; k < words.length; k++)
    if (words[k]!.startsWith('-') && PATCH_OPTION.test(words[k]!)) return repo;
  return null;
}
