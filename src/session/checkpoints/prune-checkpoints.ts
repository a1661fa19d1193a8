import { existsSync } from 'node:fs';
import { readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isSessionOpen } from '../session-lock.js';
import { runGit } from './git-runner.js';
import { INDEXES_DIR, sessionFolderName } from './session-index.js';

export interface PruneOptions {
  home: string;
  maxAgeMs: number;
  maxTotalBytes: number;
  /** Skip when the last prune is more recent than this (default: one hour). */
  minIntervalMs?: number | undefined;
  now?: number | undefined;
  signal?: AbortSignal | undefined;
}

export interface PruneReport {
  stores: number;
  removedCheckpoints: number;
  /** Stores left alone because a session of their work dir is open. */
  skippedOpen: number;
}

const STAMP = '.last-prune';

/** Bytes of a folder tree. */
async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += await folderBytes(path);
    else total += (await stat(path).catch(() => ({ size: 0 }))).size;
  }
  return total;
}

/**
 * Prunes the checkpoint stores under `<home>/checkpoints/`: checkpoints older than `maxAgeMs`, then
 * the oldest ones of a store until it is under `maxTotalBytes`. A store with an open session is not
 * touched at all (its indexes hold objects that only its next checkpoint will reference). After a
 * prune the store's indexes are removed, so the next checkpoint hashes every file again rather than
 * trusting a stat cache that names pruned objects.
 */
export async function pruneCheckpoints(options: PruneOptions): Promise<PruneReport> {
  const report: PruneReport = { stores: 0, removedCheckpoints: 0, skippedOpen: 0 };
  const base = join(options.home, 'checkpoints');
  const now = options.now ?? Date.now();
  const stampFile = join(base, STAMP);
  const last = await stat(stampFile).catch(() => null);
  if (last && now - last.mtimeMs < (options.minIntervalMs ?? 3_600_000)) return report;
  if (!existsSync(base)) return report;
  await writeFile(stampFile, '');
  for (const key of await readdir(base)) {
    options.signal?.throwIfAborted();
    const gitDir = join(base, key, 'store.git');
    if (!/^[0-9a-f]{32}$/.test(key) || !existsSync(join(gitDir, 'HEAD'))) continue;
    report.stores++;
    // Any open session of the work dir, not only those with checkpoints: one that has not finished
    // its first record yet has an index and objects no ref reaches. Looked at before the refs: a
    // session's own store (the first of a work dir, say) is skipped without starting git.
    if (await anySessionOpen(join(options.home, 'sessions', key))) {
      report.skippedOpen++;
      continue;
    }
    const refs = await listRefs(gitDir, options.signal);
    const sessions = new Set(refs.map((r) => r.session));
    const oldFirst = refs.sort((a, b) => a.time - b.time);
    const expired = oldFirst.filter((r) => now - r.time * 1000 > options.maxAgeMs);
    let remaining = oldFirst.slice(expired.length);
    let removed = await removeRefs(gitDir, expired, options.signal);
    // Over the size cap: drop the oldest half of what is left, until it fits (a bounded loop).
    while (remaining.length > 0 && (await folderBytes(gitDir)) > options.maxTotalBytes) {
      const cut = remaining.slice(0, Math.max(1, Math.ceil(remaining.length / 2)));
      remaining = remaining.slice(cut.length);
      removed += await removeRefs(gitDir, cut, options.signal);
    }
    report.removedCheckpoints += removed;
    // The indexes of sessions that have no checkpoint left are of no use to anyone.
    if (removed === 0) await removeIndexes(gitDir, new Set([...sessions].map(sessionFolderName)));
  }
  return report;
}

/** Whether a session of the work dir is open (a session with checkpoints has its folder there too). */
async function anySessionOpen(sessionsDir: string): Promise<boolean> {
  for (const name of await readdir(sessionsDir).catch(() => []))
    if (await isSessionOpen(join(sessionsDir, name))) return true;
  return false;
}

/**
 * Removes the sessions' index files (session-index.ts), and the shared ones of older versions; with
 * `keep`, only those of sessions not in it. The store has no open session here.
 */
async function removeIndexes(gitDir: string, keep?: ReadonlySet<string>): Promise<void> {
  for (const name of await readdir(gitDir)) {
    if (/^index-\d+$/.test(name)) await rm(join(gitDir, name), { force: true });
  }
  const base = join(gitDir, INDEXES_DIR);
  for (const session of await readdir(base).catch(() => [])) {
    if (!keep?.has(session)) await rm(join(base, session), { recursive: true, force: true });
  }
}

interface StoreRef {
  ref: string;
  session: string;
  /** Unix seconds. */
  time: number;
}

async function listRefs(gitDir: string, signal?: AbortSignal): Promise<StoreRef[]> {
  const { stdout } = await runGit(
    ['for-each-ref', '--format=%(refname) %(committerdate:unix)', 'refs/kimi-ts/'],
    { gitDir, signal },
  );
  const refs: StoreRef[] = [];
  for (const line of stdout.toString('utf8').split('\n')) {
    const [ref, time] = line.split(' ');
    const session = ref?.split('/')[2];
    if (ref && session && time) refs.push({ ref, session, time: Number(time) });
  }
  return refs;
}

/** Deletes the refs, drops the objects nothing reaches any more, and the stale indexes. */
async function removeRefs(gitDir: string, refs: readonly StoreRef[], signal?: AbortSignal): Promise<number> {
  if (refs.length === 0) return 0;
  await runGit(['update-ref', '--stdin'], {
    gitDir,
    input: refs.map((r) => `delete ${r.ref}\n`).join(''),
    signal,
  });
  await removeIndexes(gitDir);
  await runGit(['gc', '--prune=now', '--quiet'], { gitDir, signal });
  return refs.length;
}
