import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

const MAX_LISTED = 1_000;

/**
 * The entries at the top level of a directory, one per line and sorted: directories end in `/`,
 * files show their size, symbolic links are marked. Best effort: unreadable entries are left out.
 */
export async function listTopLevel(dir: string): Promise<string> {
  let names: string[];
  try {
    names = (await readdir(dir)).sort();
  } catch {
    return '';
  }
  const shown = names.slice(0, MAX_LISTED);
  const lines = await Promise.all(
    shown.map(async (name) => {
      try {
        const info = await lstat(join(dir, name));
        if (info.isDirectory()) return `${name}/`;
        if (info.isSymbolicLink()) return `${name} (symbolic link)`;
        return `${name} (${info.size} bytes)`;
      } catch {
        return null;
      }
    }),
  );
  const listing = lines.filter((line) => line !== null);
  if (names.length > shown.length) listing.push(`... and ${names.length - shown.length} more entries`);
  return listing.join('\n');
}
