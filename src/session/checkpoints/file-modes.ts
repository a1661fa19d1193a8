import { lstatSync } from 'node:fs';
import { join } from 'node:path';

/** How many `lstat` calls run between two turns of the event loop. */
const STAT_BATCH = 256;

/**
 * The permission bits git's file modes would give back: 755 when the owner may execute, else 644.
 * Only files whose bits differ from this are noted in a checkpoint.
 */
export function gitDefaultPermissions(permissions: number): number {
  return permissions & 0o100 ? 0o755 : 0o644;
}

/**
 * Updates `modes` (keys `<root>/<path>`) for `paths` under `root`: a regular file whose bits git
 * cannot say is noted, anything else is dropped. Returns whether anything changed.
 */
export async function noteFileModes(
  modes: Record<string, string>,
  rootIndex: number,
  root: string,
  paths: readonly string[],
  signal: AbortSignal | undefined,
): Promise<boolean> {
  let changed = false;
  for (let start = 0; start < paths.length; start += STAT_BATCH) {
    if (start > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    signal?.throwIfAborted();
    for (const path of paths.slice(start, start + STAT_BATCH)) {
      const key = `${rootIndex}/${path}`;
      const stats = statOrNull(join(root, path));
      const permissions = stats?.isFile() ? stats.mode & 0o7777 : null;
      const noted =
        permissions !== null && permissions !== gitDefaultPermissions(permissions)
          ? permissions.toString(8)
          : undefined;
      if (noted === modes[key]) continue;
      if (noted === undefined) delete modes[key];
      else modes[key] = noted;
      changed = true;
    }
  }
  return changed;
}

function statOrNull(path: string) {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}
