import { realpathSync, statSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { realPathNow } from '../policy/real-path.js';
import { isWithinDirectory } from '../util/path-within.js';

/**
 * The folders a session may work in at all, by real path: a fleet worker's `--work-root`. A job's
 * work dir and every folder added to the session (`--add-dir`, `/add-dir`, the list its saved state
 * brings — which a fleet's store, not the person, wrote) must lie inside one of them. Without roots
 * a session works wherever it is pointed, as a local session does.
 *
 * Paths are compared after realpath: a folder inside a root that is a symlink to `$HOME` is `$HOME`.
 */
export class WorkRoots {
  private constructor(
    private readonly reals: readonly string[],
    /** Without roots: the home folder no session may work in or above (its dotfiles run later). */
    private readonly homeReal: string | null = null,
    /** The worker's own folders (a `--repo` session's worktree), allowed wherever they are. */
    private readonly own: readonly string[] = [],
    /** The agent's own home (`KIMI_TS_HOME`: its config, every session, caches): never a work dir. */
    private readonly kimiReal: string | null = null,
  ) {}

  /**
   * A worker started without `--work-root`: anywhere but a folder that holds the home folder of the
   * user it runs as (`~`, `/home`, `/`), or lies in one of that home's dot-folders (`~/.ssh`,
   * `~/.config/...`, `~/.local/bin`, the agent's own `~/.kimi-ts`): a sandboxed command could write
   * `~/.bashrc`, `authorized_keys`, a git config or an autostart entry there, which run later
   * outside any sandbox; the sandbox hides the credential folders, but a work dir inside one is
   * bound on top, writable.
   */
  static anywhereBut(userHome: string, kimiHome?: string): WorkRoots {
    return new WorkRoots([], realOrSelf(userHome), [], kimiHome === undefined ? null : realOrSelf(kimiHome));
  }

  /**
   * The roots as given on the command line (relative to `cwd`): each must be an existing folder.
   * Throws with the one that is not.
   */
  static of(paths: readonly string[], cwd: string, kimiHome?: string): WorkRoots {
    const reals = paths.map((path) => {
      const absolute = resolve(cwd, path);
      let real: string;
      try {
        real = realpathSync.native(absolute);
      } catch {
        throw new Error(`--work-root ${path}: no such folder.`);
      }
      if (!statSync(real).isDirectory()) throw new Error(`--work-root ${path}: not a folder.`);
      return real;
    });
    return new WorkRoots(reals, null, [], kimiHome === undefined ? null : realOrSelf(kimiHome));
  }

  /** These roots and one folder more (a worker's own worktree of a `--repo` session). */
  with(folder: string): WorkRoots {
    // Made before the worktree is: its nearest existing folder's real path, the rest appended.
    return new WorkRoots(this.reals, this.homeReal, [...this.own, realPathNow(folder)], this.kimiReal);
  }

  /**
   * A slash command of a job's prompt that reaches past the session (`/import` of a file, `/export`,
   * `/permissions trust`) is refused with this: a fleet's prompts come from whoever can write its
   * Redis, and the worker's files, and its trust record, are not theirs. /import put any file the
   * worker could read (a private key) into the session store, readable in Redis.
   */
  static readonly JOB_COMMAND_REFUSAL =
    "Not in a fleet turn: a job's prompt does not read or write the worker's files, nor trust a folder for it (its config's [trust] folders do).";

  /**
   * With roots (`--work-root`), nothing of a session goes beyond the sandbox: no command outside it,
   * no file tool writing outside the roots, whoever answers. A fleet's approvals come from whoever
   * can write its Redis (`fleet approve`, or "for the session" answers in a planted state.json), so
   * an approval there would undo the bound. The reason such a call is refused; none without roots.
   */
  sandboxBound(): string | undefined {
    if (this.homeReal !== null) return undefined;
    return 'This fleet worker keeps its sessions inside the sandbox and its --work-root, whoever answers.';
  }

  /**
   * Why `folder` may not be worked in (it is outside every root, or it cannot be resolved), or null.
   * `what` names it in the answer ("the work dir", "the added folder").
   */
  refusal(folder: string, what: string): string | null {
    const checked = this.checked(folder, what);
    return 'refusal' in checked ? checked.refusal : null;
  }

  /**
   * `folder`'s real path when it may be worked in, else why not: the path that was checked, for the
   * session to keep (a link on the way re-pointed after the check then changes nothing).
   */
  checked(folder: string, what: string): { real: string } | { refusal: string } {
    let real: string;
    try {
      real = realpathSync.native(folder);
    } catch {
      return { refusal: `${what} ${folder} is not a folder on this worker.` };
    }
    const refusal = this.refusalOfReal(real, folder, what);
    return refusal === null ? { real } : { refusal };
  }

  private refusalOfReal(real: string, folder: string, what: string): string | null {
    if (this.homeReal !== null && isWithinDirectory(this.homeReal, real))
      return `${what} ${folder} holds the home folder of the user this worker runs as: a worker works there only inside its --work-root.`;
    if (this.own.some((own) => isWithinDirectory(real, own))) return null;
    if (
      this.kimiReal !== null &&
      (isWithinDirectory(real, this.kimiReal) || isWithinDirectory(this.kimiReal, real))
    )
      return `${what} ${folder} holds or lies in this worker's own kimi-ts home (its config, sessions and caches).`;
    if (this.homeReal !== null) {
      if (isWithinDirectory(real, this.homeReal) && relative(this.homeReal, real).startsWith('.'))
        return `${what} ${folder} lies in a dot-folder of the home of the user this worker runs as (its settings and keys): a worker works there only inside its --work-root.`;
      return null;
    }
    if (this.reals.some((root) => isWithinDirectory(real, root))) return null;
    // The roots are not named: the answer reaches whoever wrote the job, who need not know them.
    return `${what} ${folder} is outside the folders this worker works in (its --work-root).`;
  }
}

function realOrSelf(folder: string): string {
  try {
    return realpathSync.native(folder);
  } catch {
    return resolve(folder);
  }
}
