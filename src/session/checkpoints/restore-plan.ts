import { nulFields, runGit } from './git-runner.js';

/** What restoring one file does, seen from the work tree of now. */
export type FileChangeKind =
  /** The file was deleted since: it comes back. */
  | 'restore'
  /** Its bytes or mode changed since: they go back. */
  | 'revert'
  /** It was created since: it is removed. */
  | 'remove';

export interface FileChange {
  kind: FileChangeKind;
  /** Index of the root (0: the work dir). */
  root: number;
  /** Path relative to the root, `/`-separated. */
  path: string;
  /** Git mode and blob id in the target checkpoint (absent for `remove`). */
  mode?: string | undefined;
  blob?: string | undefined;
  /** Permission bits (octal) the target noted beyond git's 644/755, e.g. "600". */
  permissions?: string | undefined;
  /** Changed between `since` and now by someone other than this session: left alone unless confirmed. */
  changedElsewhere: boolean;
}

/** Changed paths between two checkpoints, as `root/path` keys. */
async function changedPaths(
  gitDir: string,
  from: string,
  to: string,
  signal?: AbortSignal,
): Promise<Set<string>> {
  const { stdout } = await runGit(['diff-tree', '-r', '-z', '--no-renames', '--name-only', from, to], {
    gitDir,
    signal,
  });
  return new Set(nulFields(stdout));
}

/**
 * The changes that take the work tree from checkpoint `now` back to `target`. With `since` (the
 * state the session last left the tree in), files that differ between `since` and `now` were changed
 * by someone else and are marked `changedElsewhere`.
 */
export async function planRestore(
  gitDir: string,
  now: string,
  target: string,
  options: {
    since?: string | undefined;
    /** More spans [from, to] whose changes were someone else's (the gaps between the session's turns). */
    elsewhereSpans?: readonly (readonly [string, string])[] | undefined;
    /** The permission bits each side noted (CheckpointInfo.modes): a chmod alone is a change too. */
    modes?: { now: Readonly<Record<string, string>>; target: Readonly<Record<string, string>> } | undefined;
    signal?: AbortSignal | undefined;
  } = {},
): Promise<FileChange[]> {
  const { stdout } = await runGit(['diff-tree', '-r', '-z', '--no-renames', '--raw', now, target], {
    gitDir,
    signal: options.signal,
  });
  const elsewhere =
    options.since && options.since !== now
      ? await changedPaths(gitDir, options.since, now, options.signal)
      : new Set<string>();
  for (const [from, to] of options.elsewhereSpans ?? []) {
    if (from === to) continue;
    for (const path of await changedPaths(gitDir, from, to, options.signal)) elsewhere.add(path);
  }
  const fields = nulFields(stdout);
  const changes: FileChange[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const header = fields[i]!;
    const fullPath = fields[i + 1]!;
    // ":<old mode> <new mode> <old blob> <new blob> <status>"
    const [oldMode, newMode, , newBlob, status] = header.replace(/^:/, '').split(' ');
    const slash = fullPath.indexOf('/');
    const root = Number(fullPath.slice(0, slash));
    const path = fullPath.slice(slash + 1);
    const changedElsewhere = elsewhere.has(fullPath);
    if (status === 'D') changes.push({ kind: 'remove', root, path, changedElsewhere });
    else if (status === 'A')
      changes.push({ kind: 'restore', root, path, mode: newMode, blob: newBlob, changedElsewhere });
    else if (oldMode !== undefined) {
      changes.push({ kind: 'revert', root, path, mode: newMode, blob: newBlob, changedElsewhere });
    }
  }
  if (options.modes) await addPermissions(gitDir, target, changes, options.modes, elsewhere, options.signal);
  return changes;
}

/**
 * Gives each restored file the bits the target noted, and adds the files whose content is the same
 * but whose bits differ (a chmod alone) as reverts of their own bytes.
 */
async function addPermissions(
  gitDir: string,
  target: string,
  changes: FileChange[],
  modes: { now: Readonly<Record<string, string>>; target: Readonly<Record<string, string>> },
  elsewhere: ReadonlySet<string>,
  signal: AbortSignal | undefined,
): Promise<void> {
  const planned = new Set(changes.map((change) => `${change.root}/${change.path}`));
  for (const change of changes) {
    if (change.kind !== 'remove') change.permissions = modes.target[`${change.root}/${change.path}`];
  }
  const differing = [...new Set([...Object.keys(modes.now), ...Object.keys(modes.target)])].filter(
    (key) => modes.now[key] !== modes.target[key] && !planned.has(key),
  );
  for (let start = 0; start < differing.length; start += 500) {
    const batch = differing.slice(start, start + 500);
    const { stdout } = await runGit(['ls-tree', '-z', target, '--', ...batch], { gitDir, signal });
    for (const entry of nulFields(stdout)) {
      const [meta, fullPath] = entry.split('\t');
      const [mode, type, blob] = meta?.split(' ') ?? [];
      if (type !== 'blob' || !fullPath || !blob) continue;
      const slash = fullPath.indexOf('/');
      changes.push({
        kind: 'revert',
        root: Number(fullPath.slice(0, slash)),
        path: fullPath.slice(slash + 1),
        mode,
        blob,
        permissions: modes.target[fullPath],
        changedElsewhere: elsewhere.has(fullPath),
      });
    }
  }
}

/** A one-line summary per change, for the approval a person sees. */
export function describeChanges(changes: readonly FileChange[], roots: readonly string[]): string[] {
  // biome-ignore lint/suspicious/useIterableCallbackReturn: the switch over the kinds is exhaustive (tsc checks it)
  return changes.map((change) => {
    const where =
      change.root === 0 ? change.path : `${roots[change.root] ?? `root ${change.root}`}/${change.path}`;
    const note = change.changedElsewhere ? ' (changed since by someone else)' : '';
    switch (change.kind) {
      case 'restore':
        return `restore ${where}${note}`;
      case 'revert':
        return `revert ${where}${note}`;
      case 'remove':
        return `remove ${where}${note}`;
    }
  });
}
