import { type Dirent, lstatSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { readTrustedFoldersSync } from '../config/trusted-folders.js';
import { PROJECT_CONFIG_FOLDER } from '../policy/sandbox-protected.js';
import { isWithinDirectory } from '../util/path-within.js';
import { realOrGiven } from '../util/real-or-given.js';

/** What the sandbox holds so that no command changes the rules a trusted folder's next session puts in force. */
export interface TrustedRulesHeld {
  /** Held read-only by themselves, made (empty) where missing: AgentCode.madeWhenMissing. */
  readonly held: readonly string[];
  /** Symlinks at the top of a writable root, put back after each command: AgentCode.keptLinks. */
  readonly keptLinks: readonly string[];
}

/**
 * The `.kimi-ts/` of every trusted folder inside the writable roots (and of the roots themselves),
 * held whatever shape the way to it has:
 * - a folder on the way that does not exist (a `[trust] folders` entry not made yet, a trusted clone
 *   the person deleted): the first missing one, made empty and held, so a command cannot make the
 *   folder with rules in it;
 * - a symlink on the way (the trusted folder itself, or its `.kimi-ts`, a link): the plain folder that
 *   holds the link, read-only with all it holds; at the top of a root (which cannot be read-only) the
 *   link is put back after each command instead (KeptNamesGuard); the folder it leads to is held too;
 * - inside a `.kimi-ts/`, a symlink to a file or folder in a writable root (rules kept with the
 *   project's other configuration): what it leads to, held by itself.
 * The trust record is read again when its stamp changes (one stat per call): a folder another
 * session trusts meanwhile is held from the next command on.
 */
export class TrustedRulesHolds {
  private stamp = '';
  private recorded: readonly string[] = [];
  private readonly walks = new Map<string, LinkWalk>();

  constructor(
    private readonly recordFile: string,
    /** `[trust] folders`, as given (configuredTrustPath). */
    private readonly configured: readonly string[],
    /** The writable roots' real paths now. */
    private readonly realRoots: () => readonly string[],
  ) {}

  current(): TrustedRulesHeld {
    const roots = this.realRoots();
    const held = new Set<string>();
    const keptLinks = new Set<string>();
    // The record's folders are real paths already; a configured one is looked at as named and where it leads.
    const folders = new Set<string>([...roots, ...this.recordedFolders()]);
    for (const given of this.configured) folders.add(given).add(realOrGiven(given));
    for (const folder of folders) {
      const root = roots.find((r) => isWithinDirectory(folder, r));
      if (root === undefined) continue;
      const rules = join(folder, PROJECT_CONFIG_FOLDER);
      const hold = rulesFolderHold(rules, root);
      if (hold.kind === 'link') keptLinks.add(hold.path);
      if (hold.kind !== 'held') continue;
      // A root's own `.kimi-ts` is held (made where missing) by the sandbox already (ensureProtected).
      if (hold.path !== rules || folder !== root) held.add(hold.path);
      if (hold.path === rules) for (const target of this.linkTargets(rules, roots)) held.add(target);
    }
    return { held: [...held], keptLinks: [...keptLinks] };
  }

  /**
   * linkTargetsInside, read again only when a folder it read changed (an lstat each, against a readdir
   * each): a decision on a file write asks for it too.
   */
  private linkTargets(rulesFolder: string, roots: readonly string[]): readonly string[] {
    const known = this.walks.get(rulesFolder);
    if (known?.folders.every(([dir, stamp]) => folderStamp(dir) === stamp)) return known.targets;
    const walk = linkTargetsInside(rulesFolder, roots);
    this.walks.set(rulesFolder, walk);
    return walk.targets;
  }

  private recordedFolders(): readonly string[] {
    const stat = statSync(this.recordFile, { throwIfNoEntry: false });
    const stamp = stat ? `${stat.ino}:${stat.size}:${stat.mtimeMs}` : '-';
    if (stamp !== this.stamp) {
      this.stamp = stamp;
      this.recorded = stat ? readTrustedFoldersSync(this.recordFile) : [];
    }
    return this.recorded;
  }
}

type RulesFolderHold =
  | { readonly kind: 'held'; readonly path: string }
  | { readonly kind: 'link'; readonly path: string }
  | { readonly kind: 'none' };

/** What holds `rulesFolder` (a `.kimi-ts` path inside `root`), walking from the root down. */
export function rulesFolderHold(rulesFolder: string, root: string): RulesFolderHold {
  let folder = root;
  const names = relative(root, rulesFolder).split(sep);
  for (const name of names) {
    const entry = join(folder, name);
    const stat = lstatSync(entry, { throwIfNoEntry: false });
    // The first missing folder on the way: made empty, so a command cannot make it with rules inside.
    if (stat === undefined) return { kind: 'held', path: entry };
    if (stat.isSymbolicLink())
      return folder === root ? { kind: 'link', path: entry } : { kind: 'held', path: folder };
    // Reached, or a file where a folder should be (no rules are read through it): held by itself.
    if (entry === rulesFolder || !stat.isDirectory()) return { kind: 'held', path: entry };
    folder = entry;
  }
  return { kind: 'none' };
}

/** At most this deep and this many entries are looked at in a `.kimi-ts/` (rules, hooks, skills). */
const MAX_DEPTH = 3;
const MAX_ENTRIES = 256;

/** What a walk of a rules folder found, and each folder it read with its stamp then. */
interface LinkWalk {
  readonly targets: readonly string[];
  readonly folders: readonly (readonly [string, string])[];
}

/** A folder's identity and last change of its entries; '-' when it is gone. */
function folderStamp(dir: string): string {
  const stat = lstatSync(dir, { throwIfNoEntry: false });
  return stat ? `${stat.ino}:${stat.mtimeMs}:${stat.ctimeMs}` : '-';
}

/** Where the symlinks in `folder` lead, when that is inside a writable root (real paths). */
function linkTargetsInside(folder: string, roots: readonly string[]): LinkWalk {
  const targets: string[] = [];
  const folders: [string, string][] = [];
  let seen = 0;
  const walk = (dir: string, depth: number) => {
    folders.push([dir, folderStamp(dir)]);
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (++seen > MAX_ENTRIES) return;
      const path = join(dir, entry.name);
      if (entry.isSymbolicLink()) {
        const real = realOrGiven(path);
        if (real !== path && roots.some((root) => real !== root && isWithinDirectory(real, root)))
          targets.push(real);
      } else if (entry.isDirectory() && depth < MAX_DEPTH) walk(path, depth + 1);
    }
  };
  walk(folder, 1);
  return { targets, folders };
}
