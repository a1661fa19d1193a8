/**
 * What a launcher a hook or MCP server starts by name reads to decide what runs, where the command
 * names no file itself: `npm run lint` runs the `lint` script of package.json, `python3 -m server`
 * runs server.py of its working folder, `make` runs the Makefile. A command that rewrote one of those
 * would run code of its own outside the sandbox (the hook right after it, the server at the next
 * start), so the sandbox holds them as it holds a named script (session-guards.ts).
 * - `files`: as given, whether they exist or not (a missing one a command could make is watched
 *   before a hook runs, hook-script-watch.ts);
 * - `folders`: read with all they hold (a Python package), held by themselves, made empty where
 *   missing so a command cannot make one that would run in place of the module beside it;
 * - `notHeld`: what it runs that the sandbox cannot hold, because the model works on it (the source
 *   `cargo run` builds, the packages in node_modules): said at start, naming the hook or server.
 */
export interface LauncherReads {
  readonly files: string[];
  readonly folders: string[];
  readonly notHeld: TreeNotHeld[];
}

/** A folder of code a launcher runs that the sandbox leaves writable, and why that matters. */
export interface TreeNotHeld {
  readonly tree: string;
  readonly why: string;
  /**
   * Held with all it holds where it is not a writable folder itself (a Python script's folder is, see
   * named-script-holds.ts): the working folder `python -m` imports from, `mcp/` rather than the
   * workspace. Not the source a build runs, nor a .venv, which the model works on.
   */
  readonly heldBelowRoot?: boolean;
}

/** Where a launcher runs: its folder, the home `~/` names, how deep in `npm run` scripts it is. */
export interface LaunchPlace {
  readonly cwd: string;
  readonly home: string;
  readonly depth: number;
  /** Folders the command line put on PATH before it (launch-commands.ts): a bare name may be found there. */
  readonly pathBins?: readonly string[];
}

/** Adds what the launchers of a command line read (launcher-reads.ts), for a package script's text. */
export type AddCommandReads = (reads: LauncherReads, command: string, place: LaunchPlace) => Promise<void>;
