/**
 * The folders the live sessions of this process can write to: each session's work dir and added
 * dirs (`--add-dir`, the config's, `/add-dir`), the same list its command sandbox binds writable
 * (src/policy/sandbox.ts `workspaceRoots`). A session registers a source, read at each use since
 * `/add-dir` adds folders mid-session, and removes it when it ends.
 *
 * Process-wide on purpose: every program kimi-ts starts (git for checkpoints, bwrap, an editor, a
 * browser, an MCP server) looks its name up on PATH, and a PATH entry in any such folder is one a
 * command the model ran could have filled (src/util/path-entries.ts drops them). Passing the list to
 * each of those call sites would leave the next one to forget it.
 */
const sources = new Set<() => readonly string[]>();

/** Adds a session's writable folders; the returned function removes them again. */
export function registerWritableFolders(source: () => readonly string[]): () => void {
  // A wrapper of our own: the same function registered twice is two registrations.
  const entry = () => source();
  sources.add(entry);
  return () => {
    sources.delete(entry);
  };
}

/** The writable folders of every live session, as they stand now. */
export function writableFolders(): string[] {
  const folders: string[] = [];
  for (const source of sources) folders.push(...source());
  return folders;
}
