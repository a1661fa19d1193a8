import { type Dirent, lstatSync, readdirSync, realpathSync, type Stats } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { archiveKind, archiveSecretReason } from './archive-secret-members.js';
import { secretNameReason } from './secret-file-names.js';
import { inodeKey, noteOtherNames } from './secret-other-names.js';
import { symlinkSecretNameReason } from './symlink-secret-names.js';

/** What the secret walk found of a root that another name of a secret file is read by. */
export interface SecretWalkNames {
  /** The regular files the walk found secret (by name, git config, content), absolute. */
  readonly files: readonly string[];
  /** Every symlink the walk met (not followed by it), with where it points. */
  readonly links: readonly WalkedLink[];
  /** Every archive the walk met (by name: `.tar`, `.tar.gz`, `.tgz`, `.zip`), absolute. */
  readonly archives: readonly string[];
  /** The folders this reading listed or kept (real paths): a name in one that is no link is none. */
  readonly folders: ReadonlySet<string>;
}

/** A symlink in a walked folder (a real path) and its target as readlink gives it. */
export interface WalkedLink {
  readonly path: string;
  readonly target: string;
}

/** How far the search for a secret file's other names goes (entries looked at, folders down). */
export interface OtherNamesBounds {
  readonly maxEntries: number;
  readonly maxDepth: number;
  /** Other names hidden, at most. */
  readonly maxFiles: number;
}

/** Archives listed per reading, at most. */
const MAX_ARCHIVES = 64;

/** Folders looked at between two turns of the event loop. */
const BATCH = 128;

/**
 * The other names a root's secret files are read by, found after each reading of the walk:
 *
 * - the target of a symlink secret by a name on its way (`.env -> config/prod-values`): `grep -R`
 *   follows the link, and `grep -r .` reads the target by its plain name;
 * - an archive holding a secret file (`backup.tar.gz` with a `.env`: archive-secret-members.ts);
 * - the other names of a secret file with more than one (`ln .env env-backup`): the same file,
 *   which a bind over `.env` does not hide. Found by a search of the root that stats every file,
 *   made only when a secret file has another name and then only when one of those files' link
 *   count or change time moved (a link made, removed or renamed changes both or the latter).
 *
 * What it finds is noted for the file tools (secret-other-names.ts) and returned for the sandbox.
 */
export class SecretWalkOtherNames {
  /** The last search: for which inodes (and their link counts and change times), what it found. */
  private searched: { readonly key: string; readonly names: readonly string[] } | null = null;

  constructor(
    readonly root: string,
    private readonly bounds: OtherNamesBounds,
  ) {}

  /** The files to hide besides `found.files` (each a real path of a regular file). */
  async find(found: SecretWalkNames): Promise<string[]> {
    const targets = new Map<string, string>();
    const chains = new LinkChains(found);
    for (const link of found.links) {
      const reason = chains.secretNameReason(link);
      if (reason === null) continue;
      const real = regularFileAt(link.path);
      if (real !== null) targets.set(real, `reached by the symlink ${basename(link.path)} (${reason})`);
    }
    // The first MAX_ARCHIVES a reading meets: a tree of many large tarballs must not hold the first
    // command for seconds (an unchanged one costs a stat; each new one up to ~50 ms).
    for (const archive of found.archives.slice(0, MAX_ARCHIVES)) {
      const kind = archiveKind(basename(archive));
      const reason = kind === null ? null : await archiveSecretReason(archive, kind);
      if (reason !== null) targets.set(archive, `an archive that ${reason}`);
    }
    const inodes = new Map<string, string>();
    const linked: Stats[] = [];
    for (const file of [...found.files, ...targets.keys()]) {
      const info = lstatOrNull(file);
      if (!info?.isFile() || info.nlink < 2) continue;
      const key = inodeKey(info.dev, info.ino);
      if (inodes.has(key)) continue;
      inodes.set(key, `a hard link of ${basename(file)}, a secret file`);
      linked.push(info);
    }
    noteOtherNames(this.root, targets, inodes);
    const names = linked.length === 0 ? [] : await this.hardLinkNames(linked);
    const known = new Set(found.files);
    const others = [...new Set([...targets.keys(), ...names])].filter((file) => !known.has(file));
    // Each is one more bind for every command, as the walk's own files are (its files' bound).
    return others.slice(0, this.bounds.maxFiles);
  }

  /** Every name under the root of the inodes in `linked`, from the last search while they are unchanged. */
  private async hardLinkNames(linked: readonly Stats[]): Promise<readonly string[]> {
    const key = linked
      .map((info) => `${info.dev}:${info.ino}:${info.nlink}:${info.ctimeMs}`)
      .sort()
      .join(' ');
    if (this.searched?.key === key) return this.searched.names;
    const names = await searchNames(this.root, linked, this.bounds);
    this.searched = { key, names };
    return names;
  }
}

/** Hops followed, as the kernel does (ELOOP past 40). */
const MAX_HOPS = 40;

/** A `..` after a name: where it leads depends on whether that name is a symlink (read it then). */
const CLIMB_AFTER_NAME = /(?:^|\/)(?!\.\.(?:\/|$))[^/]+\/\.\.(?:\/|$)/;

/** A target resolve would change: a `.` or `..` part, an empty one, a trailing slash. */
const NOT_PLAIN = /(?:^|\/)\.\.?(?:\/|$)|\/\/|\/$/;

/**
 * The chains of the walk's symlinks, judged from what the walk read: a hop to another walked link
 * is followed in memory, a hop to a name in a walked folder that is no link there ends the chain
 * with no look-up. Only a hop out of the walked folders is looked up (symlink-secret-names.ts):
 * each reading of a tree of links costs a name test per hop, not system calls.
 */
class LinkChains {
  private readonly byPath = new Map<string, string>();

  constructor(private readonly found: SecretWalkNames) {
    for (const link of found.links) this.byPath.set(link.path, link.target);
  }

  /** Why a name on the link's way is secret (its own, or a hop's), or null. */
  secretNameReason(link: WalkedLink): string | null {
    let path = link.path;
    let target: string | undefined = link.target;
    for (let hop = 0; hop < MAX_HOPS; hop++) {
      const own = secretNameReason(path);
      if (own !== null) return own;
      if (target === undefined) {
        // No walked link: a name in a walked folder is none, anything else is looked up.
        if (this.found.folders.has(dirname(path))) return null;
        return symlinkSecretNameReason(path);
      }
      if (CLIMB_AFTER_NAME.test(target)) return symlinkSecretNameReason(path);
      // Most targets are plain relative names (`sub/f.ts`): joined as resolve would, without its walk.
      const folder = dirname(path);
      path =
        target.startsWith('/') || NOT_PLAIN.test(target) ? resolve(folder, target) : `${folder}/${target}`;
      target = this.byPath.get(path);
    }
    return null;
  }
}

/**
 * The paths under `root` of the inodes in `linked` (themselves included), looking at every folder
 * but symlinks, up to the bounds; stops when every inode's names are all found.
 */
async function searchNames(
  root: string,
  linked: readonly Stats[],
  bounds: OtherNamesBounds,
): Promise<string[]> {
  const missing = new Map<string, number>();
  for (const info of linked) missing.set(inodeKey(info.dev, info.ino), info.nlink);
  const names: string[] = [];
  const queue: { path: string; depth: number }[] = [{ path: root, depth: 0 }];
  let entries = 0;
  for (let i = 0; i < queue.length && missing.size > 0; i++) {
    const { path, depth } = queue[i]!;
    let listed: Dirent[];
    try {
      listed = readdirSync(path, { withFileTypes: true });
    } catch {
      continue;
    }
    entries += listed.length;
    if (entries > bounds.maxEntries) break;
    for (const entry of listed) {
      const child = join(path, entry.name);
      if (entry.isDirectory()) {
        if (depth < bounds.maxDepth) queue.push({ path: child, depth: depth + 1 });
        continue;
      }
      if (!entry.isFile()) continue;
      const info = lstatOrNull(child);
      if (info === null || info.nlink < 2) continue;
      const key = inodeKey(info.dev, info.ino);
      const left = missing.get(key);
      if (left === undefined) continue;
      names.push(child);
      if (left <= 1) missing.delete(key);
      else missing.set(key, left - 1);
    }
    if ((i + 1) % BATCH === 0) await new Promise<void>((done) => setImmediate(done));
  }
  return names;
}

/**
 * The system's own folders: a symlink into them (`.env -> /etc/passwd`, `-> /usr/bin/bash`) names no
 * secret of the person's, and hiding its target would break every command (a tree can carry one).
 */
const SYSTEM_FOLDERS =
  /^\/(?:usr|bin|sbin|lib|lib32|lib64|libx32|etc|proc|sys|dev|run|boot|nix|snap)(?:\/|$)/;

/**
 * The real path of the regular file `link` leads to, or null (dangling, a folder, a device, a
 * system file).
 */
function regularFileAt(link: string): string | null {
  try {
    const real = realpathSync.native(link);
    if (SYSTEM_FOLDERS.test(real)) return null;
    return lstatOrNull(real)?.isFile() === true ? real : null;
  } catch {
    return null;
  }
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}
