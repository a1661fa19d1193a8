import { type Dirent, readFileSync, realpathSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { isWithinDirectory } from '../util/path-within.js';

/**
 * Folders not searched for nested repositories: installed packages, virtual environments, build
 * output and caches (large, and not where a person keeps a repository). A repository the agent's
 * command makes there is as any new one (src/policy/sandbox.ts says how that is covered).
 */
const SKIPPED_FOLDERS = new Set([
  'node_modules',
  '.venv',
  'venv',
  '__pycache__',
  '.tox',
  '.mypy_cache',
  '.pytest_cache',
  '.next',
  'target',
]);
/** How many folders one search reads at most (a command start must stay cheap in a huge tree). */
const MAX_FOLDERS = 20_000;
/** Folders read at once: libuv's default thread pool is four threads. */
const PARALLEL_READS = 4;

/**
 * The git metadata of the repositories nested in a writable workspace, as it is now: each nested
 * `.git` (a folder, or a gitfile such as a submodule's or a linked worktree's `gitdir: …`), and the
 * real folder a gitfile or a symlinked `.git` points to when that folder is inside one of the
 * writable roots. What is written there runs later, outside any sandbox, when the person uses git
 * in that repository (hooks, `core.fsmonitor`), so the sandbox binds each of them read-only, as it
 * does the top-level `.git`.
 *
 * `root/.git` itself is not listed (the caller protects it). The search skips SKIPPED_FOLDERS and
 * stops after MAX_FOLDERS folders (a repository deeper in a larger tree is not found).
 */
export async function nestedGitPaths(root: string, writableRoots: readonly string[]): Promise<string[]> {
  const found = new Set<string>();
  const top = resolve(root);
  const queue = [top];
  let next = 0;
  // Breadth first, a few folders read at once (the thread pool's width): off the event loop, so a
  // large tree never holds the session while it is read.
  const reader = async (): Promise<void> => {
    while (next < queue.length && next < MAX_FOLDERS) {
      const folder = queue[next++] as string;
      let entries: Dirent[];
      try {
        entries = await readdir(folder, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const entry of entries) {
        const path = join(folder, entry.name);
        if (entry.name === '.git') {
          if (folder !== top) addGitEntry(path, entry, writableRoots, found);
          continue;
        }
        if (entry.isDirectory() && !SKIPPED_FOLDERS.has(entry.name)) queue.push(path);
      }
    }
  };
  // Readers wait on their folder, never on each other: a reader finding the queue empty while
  // another is still reading ends, so the walk is re-run until no reader is left with work.
  while (next < queue.length && next < MAX_FOLDERS) {
    await Promise.all(Array.from({ length: PARALLEL_READS }, reader));
  }
  return [...found];
}

function addGitEntry(
  path: string,
  entry: Dirent,
  writableRoots: readonly string[],
  found: Set<string>,
): void {
  const inWritable = (target: string) => writableRoots.some((root) => isWithinDirectory(target, root));
  if (entry.isDirectory()) {
    found.add(path);
    return;
  }
  if (entry.isSymbolicLink()) {
    // The link itself cannot be bound (a bind follows it); what it points to can.
    const target = realTarget(path);
    if (target && inWritable(target)) found.add(target);
    return;
  }
  if (!entry.isFile()) return;
  found.add(path);
  const gitdir = gitfileTarget(path);
  if (gitdir && inWritable(gitdir)) found.add(gitdir);
}

function realTarget(path: string): string | null {
  try {
    const real = realpathSync(path);
    return statSync(real).isDirectory() ? real : null;
  } catch {
    return null;
  }
}

/** The folder a gitfile (`gitdir: ../.git/modules/x`) names, resolved and real; null if none. */
function gitfileTarget(path: string): string | null {
  try {
    const text = readFileSync(path, 'utf8').slice(0, 4096);
    const match = /^gitdir:\s*(.+?)\s*$/m.exec(text);
    if (!match?.[1]) return null;
    return realTarget(resolve(dirname(path), match[1]));
  } catch {
    return null;
  }
}
