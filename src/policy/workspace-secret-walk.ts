import { lstatSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { INSTALLED_CODE_FOLDERS } from '../util/installed-code-folders.js';
import { isWithinDirectory } from '../util/path-within.js';
import { SharedWorkTreeWalk } from '../util/shared-work-tree-walk.js';
import { type FolderFacts, type NotedFiles, WorkTreeWalk } from '../util/work-tree-walk.js';
import { archiveKind } from './archive-secret-members.js';
import { GitIndexClean } from './git-index-clean.js';
import { type FolderFiles, isNpmrc, type TokenFiles } from './sandbox-token-files.js';
import { fileSecretContentReason, secretsFoundByContent } from './secret-content.js';
import { secretNameReason } from './secret-file-names.js';
import { SecretWalkOtherNames, type WalkedLink } from './secret-walk-other-names.js';

/**
 * Folders the walk does not enter: installed dependencies and vendored code (a package's own
 * `.env.test` or `test/fixtures/key.pem` are not the person's secrets, and `node_modules` alone can
 * hold more entries than the whole bound), virtual environments and caches. `.git` is not entered
 * either (objects, not files anyone reads by name), but its `config` is looked at for a credential.
 */
export const SECRET_WALK_SKIPPED_FOLDERS: ReadonlySet<string> = new Set([
  ...INSTALLED_CODE_FOLDERS,
  'bower_components',
  'jspm_packages',
  'vendor',
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
  /**
   * Regular files secret by name or by content, absolute, and the other names they are read by (the
   * target of a secret-named symlink, a hard link's other names, an archive holding one:
   * secret-walk-other-names.ts).
   */
  readonly files: readonly string[];
  /**
   * The files holding a token (or an `.npmrc`), each with the redacted copy bound over it instead
   * (sandbox-token-files.ts); absent when the walk scans no content.
   */
  readonly copies?: ReadonlyMap<string, string>;
  /** Null when the whole tree (but the skipped folders) was read; else the bound that was hit. */
  readonly boundHit: 'depth' | 'entries' | 'files' | 'content' | null;
}

/**
 * The secret files of a workspace root (a real path): by name (secret-file-names.ts, the one list),
 * each `.git/config` that holds a credential, and the files under the root that content scans of this
 * process found secret. Entries are typed as readdir gives them (lstat's type): a symlink named
 * `.env` is not a file here, and a folder named `.env` is walked like any other.
 */
export function walkSecretFiles(
  root: string,
  bounds: SecretWalkBounds = SECRET_WALK_BOUNDS,
): Promise<SecretWalk> {
  return new SecretFilesWalk(root, bounds).read();
}

/**
 * The files a walk for secret files notes in each folder's facts: those secret by name and archives
 * (which may hold one), in every folder but those under a skipped one (a package's own `.env.test` is
 * no one's secret, and its names are not even looked at); its symlinks are noted there too.
 */
const SECRET_FILE_NOTES: NotedFiles = (relative) =>
  relative !== '' && relative.split('/').some((name) => SECRET_WALK_SKIPPED_FOLDERS.has(name))
    ? null
    : isSecretOrArchiveName;

function isSecretOrArchiveName(name: string): boolean {
  return secretNameReason(name) !== null || archiveKind(name) !== null;
}

/** A walk of `root` that a SecretFilesWalk can read (it notes the files secret by name). */
export function secretNotingWalk(root: string, now: () => number = Date.now): SharedWorkTreeWalk {
  return new SharedWorkTreeWalk(new WorkTreeWalk(root, now, SECRET_FILE_NOTES));
}

/**
 * Each root's one walk (secretNotingWalk's), made when first asked for: what the checks of a root
 * after each command (nested repositories, secret files) share.
 */
export function sharedWalksByRoot(now: () => number = Date.now): (root: string) => SharedWorkTreeWalk {
  const walks = new Map<string, SharedWorkTreeWalk>();
  return (root) => {
    let walk = walks.get(root);
    if (walk === undefined) {
      walk = secretNotingWalk(root, now);
      walks.set(root, walk);
    }
    return walk;
  };
}

/**
 * The walk of one root, kept between readings (one at each turn and after each command). It is a
 * visitor of a WorkTreeWalk reading (src/util/work-tree-walk.ts: each reading lstats every folder it
 * enters and lists again only those that changed; a tree of 4,000 entries costs ~5 ms of CPU to
 * list, its 180 lstats ~0.3 ms), which it may share with the other checks of the tree (the nested
 * repositories' git metadata): one reading of the tree after a command serves both.
 */
export class SecretFilesWalk {
  private readonly walk: SharedWorkTreeWalk;
  private readonly otherNames: SecretWalkOtherNames;

  constructor(
    readonly root: string,
    private readonly bounds: SecretWalkBounds = SECRET_WALK_BOUNDS,
    /** The clock folders are judged settled on (tests move it). */
    now: () => number = Date.now,
    /** The walk of `root` to share (made by secretNotingWalk); a walk of its own when not given. */
    shared?: SharedWorkTreeWalk,
    /** The scan of the files' content for tokens (none when not given: only what is secret by name). */
    private readonly tokens?: TokenFiles,
  ) {
    if (shared !== undefined && shared.walk.notedFiles !== SECRET_FILE_NOTES)
      throw new Error('a secret files walk needs a walk that notes secret files (secretNotingWalk)');
    this.walk = shared ?? secretNotingWalk(root, now);
    this.otherNames = new SecretWalkOtherNames(root, bounds);
    this.trackedClean = new GitIndexClean(root);
    this.isTrackedClean = (path, stat) => this.trackedClean.isClean(path, stat);
  }

  /**
   * The folders whose listing the token scan was last given (the walk keeps a folder's facts, the
   * same object, while its entries are unchanged).
   */
  private readonly listed = new WeakSet<FolderFacts>();

  /** The root repository's files as its index holds them: the token scan passes them over. */
  private readonly trackedClean: GitIndexClean;
  private readonly isTrackedClean: (path: string, stat: Stats) => boolean;

  /**
   * One reading. `after`: what a command that ended leaves to look at again (see
   * SandboxSecretFiles.refresh): the token scan stats only the files of the folders whose listing
   * changed and those the command named; without it, every file is looked at again (a turn begins).
   */
  async read(after?: { readonly named: ReadonlySet<string> }): Promise<SecretWalk> {
    const { bounds } = this;
    const files: string[] = [];
    const gitConfigs: string[] = [];
    const links: WalkedLink[] = [];
    const archives: string[] = [];
    const folders = new Set<string>();
    const plain: FolderFiles[] = [];
    const tokens = this.tokens;
    let boundHit: SecretWalk['boundHit'] = null;
    let entries = 0;
    // A folder that could not be looked at is left out (what is under it is not walked).
    await this.walk.read(({ path, depth, facts }) => {
      entries += facts.entries;
      if (entries > bounds.maxEntries) {
        boundHit = 'entries';
        return 'stop';
      }
      folders.add(path);
      if (facts.dotGit === 'folder') gitConfigs.push(join(path, '.git', 'config'));
      for (const [name, target] of facts.notedLinks) links.push({ path: join(path, name), target });
      if (tokens?.scansContent === true && facts.otherFiles.length > 0) {
        plain.push({
          files: otherFilesOf(path, facts),
          sameListing: after !== undefined && this.listed.has(facts),
        });
        this.listed.add(facts);
      }
      for (const name of facts.notedFiles) {
        if (secretNameReason(name) === null) {
          archives.push(join(path, name));
          continue;
        }
        if (files.length >= bounds.maxFiles) {
          boundHit = 'files';
          return 'stop';
        }
        files.push(join(path, name));
      }
      if (depth + 1 > bounds.maxDepth) {
        if (facts.subfolders.some(isWalked)) boundHit ??= 'depth';
        return 'none';
      }
      return isWalked;
    });
    // Past the files' bound, these still count (few, and the ones a name cannot tell).
    for (const config of gitConfigs)
      if (isRegularFile(config) && (await fileSecretContentReason(config)) !== null) files.push(config);
    if (tokens?.scansContent === true) this.trackedClean.refresh();
    const found = await tokens?.findIn(plain, files.filter(isNpmrc), after?.named, this.isTrackedClean);
    if (found !== undefined) {
      files.push(...found.hidden);
      if (found.unscanned > 0) boundHit ??= 'content';
    }
    const named = new Set(files);
    for (const found of secretsFoundByContent())
      if (isWithinDirectory(found, this.root) && !named.has(found) && isRegularFile(found)) files.push(found);
    files.push(...(await this.otherNames.find({ files, links, archives, folders })));
    // A file hidden whole for another reason (a hard link of `.env`, a file a tool's scan of all of it
    // found secret past the first MiB) stays hidden whole: a copy takes out only the tokens. An
    // `.npmrc`'s copy is what it is hidden by.
    const whole = new Set(files);
    const copies = new Map([...(found?.copies ?? [])].filter(([file]) => !whole.has(file) || isNpmrc(file)));
    return found === undefined ? { files, boundHit } : { files, copies, boundHit };
  }
}

/**
 * The paths of a folder's other files (those the token scan reads), made once while its facts are
 * kept (the folder unchanged): not 4,000 strings built again at every reading.
 */
const otherFilePaths = new WeakMap<
  FolderFacts,
  { readonly path: string; readonly files: readonly string[] }
>();

function otherFilesOf(path: string, facts: FolderFacts): readonly string[] {
  const known = otherFilePaths.get(facts);
  if (known?.path === path) return known.files;
  const files = facts.otherFiles.map((name) => `${path}/${name}`);
  otherFilePaths.set(facts, { path, files });
  return files;
}

/** Whether the walk enters a subfolder of this name. */
function isWalked(name: string): boolean {
  return !SECRET_WALK_SKIPPED_FOLDERS.has(name);
}

/** Whether `path` is a regular file itself (not a symlink to one). */
export function isRegularFile(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false })?.isFile() === true;
  } catch {
    return false;
  }
}
