import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { runGitProcess } from '../util/git-process.js';
import { checkoutSecretReason } from './git-checkout-secrets.js';
import { repositoryHasNotes } from './git-notes-refs.js';
import { localUrlPath } from './git-store-copies.js';
import type { GitRepoWords, GitStoreRead, GitWord } from './git-store-read-kinds.js';
import { gitStoreRead } from './git-store-reads.js';
import { gitStoreSecretsNow } from './git-store-secrets.js';
import { gitRepoPlace } from './git-store-state.js';
import { splitWords } from './shell-split-words.js';

/** One way a command part runs git: its words (null for one only run time knows), the variables before it. */
export interface GitRun {
  readonly words: readonly GitWord[];
  readonly assigned: readonly string[];
  /** A later part of the line runs after it: it may read what this one writes (git-worktree-writes.ts). */
  readonly followed?: boolean;
  /** Remotes' names earlier parts of the line lead somewhere (git-remotes-before.ts). */
  readonly remotes?: ReadonlyMap<string, readonly (string | null)[]>;
}

/** What the line around a git command did or does: what it reads may depend on it. */
type LineFacts = Pick<GitRun, 'followed' | 'remotes'>;

/**
 * Why a command part that runs git may print a secret git's object store holds, in `folder`, or
 * null: what it reads (git-store-reads.ts) against what the store holds (git-store-secrets.ts), the
 * index's and HEAD's files (git-checkout-secrets.ts) for a command that prints only those; an alias
 * is looked up in the config git reads and its command judged in turn. Null with no promise for a
 * part that prints nothing stored (`git status`, `git add x`).
 */
export function gitRunStoreReason(run: GitRun, folder: string): string | null | Promise<string | null> {
  const read = gitRunRead(run, folder);
  return read === null ? null : readReason(read, folder, 0, run);
}

/** What the run prints of git's store (git-store-reads.ts), with no look-up of anything but paths. */
export function gitRunRead(run: GitRun, folder: string): GitStoreRead | null {
  return gitStoreRead(run.words, run.assigned, (word, repo) => isPath(word, repo, folder));
}

/** Why printing every stored file of the store `repo` names, from `folder`, hands over a secret, or null. */
export function gitStoreHistoryReason(
  repo: GitRepoWords,
  folder: string,
): string | null | Promise<string | null> {
  return readReason({ kind: 'history', repo }, folder, 0, {});
}

/** How many aliases deep an alias is followed (git stops at a loop; a chain this long is no work). */
const MAX_ALIAS_DEPTH = 8;

function readReason(
  read: GitStoreRead,
  folder: string,
  depth: number,
  line: LineFacts,
): string | null | Promise<string | null> {
  switch (read.kind) {
    case 'writes':
      // Alone on its line it prints no stored file; a later command reads the files as they are then.
      if (line.followed !== true) return null;
      return then(gitStoreSecretsNow(read.repo.args, folder, read.repo.env), (found) =>
        found.files === null
          ? null
          : `it writes git's stored files into the work tree, where the rest of the line may read them, and ${found.files}`,
      );
    case 'unknownRepo':
      return "it prints git's stored files of a repository only run time names";
    case 'history':
      return then(gitStoreSecretsNow(read.repo.args, folder, read.repo.env), (found) => {
        const reason = found.files ?? found.messages;
        return reason === null ? null : `it prints git's stored files, and ${reason}`;
      });
    case 'messages':
      return then(gitStoreSecretsNow(read.repo.args, folder, read.repo.env), (found) => {
        if (found.messages !== null) return `it prints git's commit messages, and ${found.messages}`;
        if (found.files === null) return null;
        // Notes are printed with the messages, and are stored files.
        const place = Object.keys(read.repo.env).length === 0 ? gitRepoPlace(read.repo.args, folder) : null;
        const notes = place === null || place === 'none' || repositoryHasNotes(place);
        return notes ? `it prints git's commit messages and notes, and ${found.files}` : null;
      });
    case 'checkout':
      return then(gitStoreSecretsNow(read.repo.args, folder, read.repo.env), (found) => {
        // No stored file holds a secret: neither do the index's and HEAD's.
        if (found.files === null) return null;
        const place = Object.keys(read.repo.env).length === 0 ? gitRepoPlace(read.repo.args, folder) : null;
        // A repository found only by git: as for any command printing stored files.
        if (place === null || place === 'none') return `it prints git's stored files, and ${found.files}`;
        return then(checkoutSecretReason(place, { ...read, base: repoBase(read.repo, folder) }), (reason) =>
          reason === null ? null : `it prints git's stored files, and ${reason}`,
        );
      });
    case 'alias':
      return aliasReason(read, folder, depth, line);
    case 'remote':
      return remoteReason(read, folder, depth, line);
  }
}

/**
 * A fetch, pull or push through a remote's name or a URL: where the config leads it (`git ls-remote
 * --get-url`, which applies `remote.NAME.url` and `url.BASE.insteadOf` and talks to no remote) is a
 * local repository, it copies a store as `git fetch ../other` does: that one's history (a fetch),
 * or this one's (a push). A remote host's is no file of this machine. Where an earlier part of the
 * line led the name somewhere (`git remote add x ../other && git fetch x`; `origin` for a fetch that
 * names none), that place is judged as well: the config as it is now may know nothing of it.
 */
async function remoteReason(
  read: Extract<GitStoreRead, { kind: 'remote' }>,
  folder: string,
  depth: number,
  line: LineFacts,
): Promise<string | null> {
  const named = line.remotes?.get(read.remote === '' ? 'origin' : read.remote) ?? [];
  if (named.includes(null)) return readReason({ kind: 'unknownRepo' }, folder, depth, line);
  for (const target of [read.remote, ...(named as readonly string[])]) {
    const reason = await remoteTargetReason(read, target, folder, depth, line);
    if (reason !== null) return reason;
  }
  return null;
}

/** The same, for one name or URL (`''`: the default remote). */
async function remoteTargetReason(
  read: Extract<GitStoreRead, { kind: 'remote' }>,
  target: string,
  folder: string,
  depth: number,
  line: LineFacts,
): Promise<string | null> {
  const url = await gitOutput(
    [...read.repo.args, 'ls-remote', '--get-url', ...(target === '' ? [] : ['--', target])],
    folder,
    read.repo.env,
  );
  const local = url === null ? null : localUrlPath(url);
  if (local === null) return null;
  const path = resolve(repoBase(read.repo, folder), local);
  if (statSync(path, { throwIfNoEntry: false }) === undefined) return null;
  if (read.pushes) return readReason({ kind: 'history', repo: read.repo }, folder, depth, line);
  const here: string[] = [];
  for (let i = 0; i + 1 < read.repo.args.length; i++)
    if (read.repo.args[i] === '-C') here.push('-C', read.repo.args[++i]!);
  return readReason({ kind: 'history', repo: { args: [...here, '-C', path], env: {} } }, folder, depth, line);
}

/** What a git command that runs no program prints (its last newline removed); null when it fails. */
async function gitOutput(
  args: readonly string[],
  folder: string,
  env: Readonly<Record<string, string>>,
): Promise<string | null> {
  try {
    const { code, stdout } = await runGitProcess([...args], {
      cwd: folder,
      env: { ...process.env, ...env },
      settings: [],
      okCodes: [1, 2, 128],
      timeoutMs: 10_000,
      failure: (message) => new Error(message),
      missing: 'git is not installed',
    });
    return code === 0 ? stdout.toString('utf8').replace(/\n$/, '') : null;
  } catch {
    return null;
  }
}

async function aliasReason(
  read: Extract<GitStoreRead, { kind: 'alias' }>,
  folder: string,
  depth: number,
  line: LineFacts,
): Promise<string | null> {
  if (depth >= MAX_ALIAS_DEPTH) return readReason({ kind: 'history', repo: read.repo }, folder, depth, line);
  const value = await aliasValue(read, folder);
  if (value === null) return null;
  // `!…` is a shell command line: it may run any git command, on any repository.
  if (value.startsWith('!')) return readReason({ kind: 'history', repo: read.repo }, folder, depth, line);
  const words: GitWord[] = ['git', ...read.repo.args, ...splitWords(value), ...read.rest];
  const assigned = Object.entries(read.repo.env).map(([name, text]) => `${name}=${text}`);
  const next = gitStoreRead(words, assigned, (word, repo) => isPath(word, repo, folder));
  return next === null ? null : readReason(next, folder, depth + 1, line);
}

/** `f(value)`, in a promise only when `value` is one (a ready answer waits on no microtask). */
function then<T, U>(value: T | Promise<T>, f: (ready: T) => U | Promise<U>): U | Promise<U> {
  return value instanceof Promise ? value.then(f) : f(value);
}

/** The folder git works in: the command's, after each `-C`. */
function repoBase(repo: GitRepoWords, folder: string): string {
  let base = folder;
  for (let i = 0; i + 1 < repo.args.length; i++)
    if (repo.args[i] === '-C') base = resolve(base, repo.args[++i]!);
  return base;
}

/** A word git takes as a path: it names an existing file or folder (else it is a revision, or an error). */
function isPath(word: string, repo: GitRepoWords, folder: string): boolean {
  try {
    return statSync(resolve(repoBase(repo, folder), word), { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

/**
 * The alias's definition in the config git reads there (system, global, the repository's, includes,
 * `-c` on the command line and in the environment), by git itself; null when there is none (a
 * `git-NAME` program, or a typo). `git config --get` runs no program.
 */
async function aliasValue(
  read: Extract<GitStoreRead, { kind: 'alias' }>,
  folder: string,
): Promise<string | null> {
  return gitOutput(
    [
      ...read.repo.args,
      ...read.settings.flatMap((setting) => ['-c', setting]),
      'config',
      '--get',
      `alias.${read.name}`,
    ],
    folder,
    read.repo.env,
  );
}
