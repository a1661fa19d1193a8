import { type GitRunOptions, nulFields, runGit } from './git-runner.js';
import type { Candidates } from './record-candidates.js';
import { writeLooseObject } from './store-objects.js';

/**
 * The files inside nested repositories (a folder with a `.git` of its own: a vendored checkout, one
 * repository of a folder of several) recorded like any other file of the root.
 *
 * `git add` records such a folder as a gitlink (its HEAD commit, never its files), and `ls-files
 * --others` lists it as one entry, `sub/`. But git walks into a folder the index already holds files
 * under, nested repository or not (and skips every entry named `.git` on the way). So a newly found
 * nested repository gets a placeholder entry in the session index (a name that is not on disk, so
 * `ls-files` lists it as deleted and the staging `git add -A` drops it again); from then on git
 * treats the folder as a plain one of the root: the root's and the folder's own `.gitignore` rules,
 * the size cap and the secret-file skipping, the stat cache (an unchanged file is not read again).
 *
 * git never runs inside the nested repository: its config (core.fsmonitor, hooks, filters,
 * core.worktree) is never read, and its `.git` (a folder, a gitfile or a symlink) is never recorded.
 * (Running `git ls-files` inside it would have used its own index and ignore files, but with its
 * config and its `.git` wherever a gitfile or symlink leads.) What this does not see: its
 * `.git/info/exclude`, and files it tracks although they match its ignore rules (they are recorded
 * only when no rule ignores them). A folder that becomes a repository between the listing and the
 * staging `git add` is recorded by that add as a gitlink: a rewind names it as not restorable
 * (nested-repositories.ts), and a later record opens it once its HEAD moves (or in the next process).
 */

/** The name of the placeholder entry under a nested repository's folder (never a real file's name in practice; one that exists is simply recorded). */
export const NESTED_PLACEHOLDER = '\u0001kimi-ts-nested-repository';

/** How deep nested repositories inside nested repositories are followed. */
const MAX_NESTING = 32;

/** Lists what differs between the index and the work tree under `specs` (all of the root when none). */
export type ListCandidates = (specs: readonly string[]) => Promise<Candidates>;

/**
 * Takes the candidates of a record (`ls-files --others --modified --deleted`) and gives back their
 * paths with each nested repository entry (`sub/`) replaced by the files under it, its placeholder
 * among them; repositories inside those are followed the same way. A tracked path that is a folder
 * now (`isFolder`: a file or a gitlink a nested repository replaced) is opened too: its index entry
 * gives way to the placeholder. `unopened`: folders nested deeper than followed, which the staging
 * must leave out (else `git add` records them as gitlinks).
 */
export async function openNestedRepositories(
  git: GitRunOptions,
  candidates: Candidates,
  list: ListCandidates,
  isFolder: (path: string) => boolean,
): Promise<{ candidates: string[]; unopened: string[] }> {
  const newRepositories = (found: Candidates) => [
    ...found.paths.filter((path) => path.endsWith('/')),
    ...[...new Set(found.tracked)].filter(isFolder).map((path) => `${path}/`),
  ];
  let found = newRepositories(candidates);
  if (found.length === 0) return { candidates: candidates.paths, unopened: [] };
  const out = candidates.paths.filter((path) => !path.endsWith('/'));
  for (let depth = 0; found.length > 0 && depth < MAX_NESTING; depth++) {
    git.signal?.throwIfAborted();
    await placePlaceholders(git, found);
    const inside = await list(found.map((folder) => `:(literal)${folder}`));
    found = newRepositories(inside);
    out.push(...inside.paths.filter((path) => !path.endsWith('/')));
  }
  return { candidates: out, unopened: found.map((folder) => folder.slice(0, -1)) };
}

/**
 * Gives each folder (`sub/`, with its slash) a placeholder entry in the session index: from then on
 * git walks it as a plain folder of the root and never asks whether it is a repository.
 */
export async function placePlaceholders(git: GitRunOptions, folders: readonly string[]): Promise<void> {
  if (folders.length === 0) return;
  const empty = writeLooseObject(git.gitDir, 'blob', Buffer.alloc(0));
  const entries = folders.map((folder) => `100644 ${empty}\t${folder}${NESTED_PLACEHOLDER}\0`).join('');
  // --replace: a file or gitlink the index holds where the folder now is gives way.
  await runGit(['update-index', '-z', '--add', '--replace', '--index-info'], { ...git, input: entries });
}

/** git's mode for a gitlink. */
const GITLINK_MODE = '160000 ';

/**
 * Removes the gitlinks an index holds (one written before nested repositories were recorded file by
 * file, or copied from another session's): while the index holds one, git never walks into the
 * folder. The next `ls-files --others` lists the folder as a nested repository again.
 */
export async function dropGitlinks(git: GitRunOptions): Promise<void> {
  const { stdout } = await runGit(['ls-files', '-z', '--stage'], git);
  const gitlinks: string[] = [];
  for (const entry of nulFields(stdout)) {
    if (!entry.startsWith(GITLINK_MODE)) continue;
    const tab = entry.indexOf('\t');
    if (tab >= 0) gitlinks.push(entry.slice(tab + 1));
  }
  if (gitlinks.length === 0) return;
  await runGit(['update-index', '-z', '--force-remove', '--stdin'], {
    ...git,
    input: gitlinks.map((path) => `${path}\0`).join(''),
  });
}
