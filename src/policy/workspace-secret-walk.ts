import { type Dirent, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isWithinDirectory } from '../util/path-within.js';
import { fileSecretContentReason, secretsFoundByContent } from './secret-content.js';
import { secretNameReason } from './secret-file-names.js';

/**
 * Folders the walk does not enter: installed dependencies and vendored code (a package's own
 * `.env.test` or `test/fixtures/key.pem` are not the person's secrets, and `node_modules` alone can
 * hold more entries than the whole bound), virtual environments and caches. `.git` is not entered
 * either (objects, not files anyone reads by name), but its `config` is looked at for a credential.
 */
export const SECRET_WALK_SKIPPED_FOLDERS: ReadonlySet<string> = new Set([
  'node_modules',
  'bower_components',
  'jspm_packages',
  'vendor',
  '.venv',
  'venv',
  '__pycache__',
  '.tox',
  '.mypy_cache',
  '.pytest_cache',
  '.gradle',
  '.yarn',
  '.pnpm-store',
]);

/** How far a walk goes: past either bound, what it found so far is hidden and the bound is said. */
export interface SecretWalkBounds {
  /** Folder depth below the root (the root is 0). */
  readonly maxDepth: number;
  /** Directory entries looked at, over all folders. */
  readonly maxEntries: number;
  /**
   * Secret files found: each is one more mount for every command (~0.2 ms) and one more descriptor
   * of its launch (sandbox-bind-fds.ts allows 1,000 in all), so a tree of test keys and certificates
   * must not make every command slow or refused.
   */
  readonly maxFiles: number;
}

export const SECRET_WALK_BOUNDS: SecretWalkBounds = { maxDepth: 16, maxEntries: 50_000, maxFiles: 256 };

/** One walk's findings under a root. */
export interface SecretWalk {
  /** Regular files (not symlinks) secret by name or by content, absolute. */
  readonly files: readonly string[];
  /** Null when the whole tree (but the skipped folders) was read; else the bound that was hit. */
  readonly boundHit: 'depth' | 'entries' | 'files' | null;
}

/** Folders looked at between two turns of the event loop. */
const BATCH = 128;

/**
 * The secret files of a workspace root (a real path): by name (secret-file-names.ts, the one list),
 * each `.git/config` that holds a credential, and the files under the root that content scans of this
 * process found secret. Entries are typed as readdir gives them (lstat's type): a symlink named
 * `.env` is not a file here, and a folder named `.env` is walked like any other.
 */
export async function walkSecretFiles(
  root: string,
  bounds: SecretWalkBounds = SECRET_WALK_BOUNDS,
): Promise<SecretWalk> {
  const files: string[] = [];
  const gitConfigs: string[] = [];
  let boundHit: SecretWalk['boundHit'] = null;
  let entries = 0;
  const queue: { path: string; depth: number }[] = [{ path: root, depth: 0 }];
  // Not in the caller's stretch: a turn's request or a command's result goes out first.
  await new Promise<void>((done) => setImmediate(done));
  walk: for (let i = 0; i < queue.length; i++) {
    const { path, depth } = queue[i] as { path: string; depth: number };
    let listed: Dirent[];
    try {
      listed = readdirSync(path, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of listed) {
      if (++entries > bounds.maxEntries) {
        boundHit = 'entries';
        break walk;
      }
      const { name } = entry;
      if (entry.isDirectory()) {
        if (name === '.git') gitConfigs.push(join(path, name, 'config'));
        else if (SECRET_WALK_SKIPPED_FOLDERS.has(name)) continue;
        else if (depth + 1 > bounds.maxDepth) boundHit ??= 'depth';
        else queue.push({ path: join(path, name), depth: depth + 1 });
      } else if (entry.isFile() && secretNameReason(name) !== null) {
        if (files.length >= bounds.maxFiles) {
          boundHit = 'files';
          break walk;
        }
        files.push(join(path, name));
      }
    }
    if ((i + 1) % BATCH === 0) await new Promise<void>((done) => setImmediate(done));
  }
  // A token in a remote's URL: scanned once while the file is unchanged (secret-content.ts's cache).
  // Past the files' bound, these still count (few, and the ones a name cannot tell).
  for (const config of gitConfigs)
    if (isRegularFile(config) && (await fileSecretContentReason(config)) !== null) files.push(config);
  const named = new Set(files);
  for (const found of secretsFoundByContent())
    if (isWithinDirectory(found, root) && !named.has(found) && isRegularFile(found)) files.push(found);
  return { files, boundHit };
}

/** Whether `path` is a regular file itself (not a symlink to one). */
export function isRegularFile(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false })?.isFile() === true;
  } catch {
    return false;
  }
}
