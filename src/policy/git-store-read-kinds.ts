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
