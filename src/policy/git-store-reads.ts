import { GIT_COMMANDS } from './git-command-names.js';
import {
  diffFilesRead,
  diffRead,
  hunksRead,
  isPatchOption,
  stashRead,
  verboseRead,
} from './git-diff-reads.js';
import { remoteNamed } from './git-remote-names.js';
import { remoteWord, type StoreCopyCommand, storeCopied } from './git-store-copies.js';
import type { GitRepoWords, GitStoreRead, GitWord } from './git-store-read-kinds.js';
import { writesRead } from './git-worktree-writes.js';

/**
 * Reads `words` (a command's, wrappers removed; assignments before it in `assigned`): what it prints
 * of git's store (the kinds of read: git-store-read-kinds.ts), or null when it runs no git or a git
 * command that prints nothing stored. Its repository (global options, `GIT_*` variables) is read
 * here, the words after a diff command in git-diff-reads.ts.
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
      return diffFilesRead(rest, repo, isPath);
    case 'clone':
    case 'fetch':
    case 'pull':
    case 'push':
    case 'worktree':
      return copyRead(subcommand, rest, repo, isPath);
    case 'remote': {
      // `git remote add -f NAME URL` fetches from URL at once (git-remote-names.ts).
      const named = remoteNamed(subcommand, rest);
      return named?.fetches ? copyRead('fetch', [named.target], repo, isPath) : null;
    }
    case 'status':
    case 'commit':
      return verboseRead(rest, repo);
    case 'add':
    case 'checkout':
    case 'restore':
    case 'reset':
      return hunksRead(subcommand, rest, repo, isPath) ?? writesRead(subcommand, rest, repo, isPath);
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

/**
 * A command that copies a store (git-store-copies.ts), as a read of its history; a fetch, pull or
 * push through a remote's name or a URL, as the `remote` read that looks it up.
 */
function copyRead(
  subcommand: StoreCopyCommand,
  rest: readonly GitWord[],
  repo: GitRepoWords,
  isPath: (word: string, repo: GitRepoWords) => boolean,
): GitStoreRead | null {
  const copied = storeCopied(subcommand, rest, (word) => isPath(word, repo));
  const remote = copied === null ? remoteWord(subcommand, rest) : undefined;
  if (remote === null) return { kind: 'unknownRepo' };
  if (remote !== undefined) return { kind: 'remote', repo, remote, pushes: subcommand === 'push' };
  return storeCopyRead(copied, repo);
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
