import { lstatSync, mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isWithinDirectory } from '../util/path-within.js';
import type { SharedWorkTreeWalk } from '../util/shared-work-tree-walk.js';
import { RedactedCopies } from './sandbox-redacted-copies.js';
import { TOKEN_SCAN_BOUNDS, TokenFiles } from './sandbox-token-files.js';
import { noteReadingUnderWay } from './secret-other-names.js';
import {
  isRegularFile,
  SECRET_WALK_BOUNDS,
  SecretFilesWalk,
  type SecretWalk,
  type SecretWalkBounds,
  sharedWalksByRoot,
} from './workspace-secret-walk.js';

/**
 * The workspace's secret files (real paths) as a command's sandbox binds over them: `source` (the
 * empty file) over each, or its redacted copy when it has one (a file holding a token, an `.npmrc`).
 */
export interface SecretFileBinds {
  readonly files: readonly string[];
  readonly source: string;
  readonly copies?: ReadonlyMap<string, string>;
}

/**
 * The workspace's secret files (`.env`, `prod.env`, an `.npmrc`, a `.git/config` with a token…) as
 * the sandbox hides them from every command: each reads as empty and cannot be written, as the home's
 * credential files. A command that reads whole folders (`grep -r KEY .`, `tar c .`) names none of
 * them, so the policy cannot ask about them: the sandbox is what keeps them out.
 *
 * Found by a walk of each writable folder (workspace-secret-walk.ts), made off the commands' path:
 * at the session's first command (which waits for it), again when a turn begins (a file the person
 * made between turns; the walk runs while the model is asked) and after each command (one it made).
 * A command waits only for the reading under way, usually long done.
 */
export class SandboxSecretFiles {
  private readonly readings = new Map<string, Promise<SecretWalk>>();
  private readonly walks = new Map<string, SecretFilesWalk>();
  private emptyFile: string | undefined;
  /** The redacted copies of the files holding a token, bound over them; removed by `dispose`. */
  private readonly copies: RedactedCopies;
  /** The files whose copies a command's result said already (a note says each once). */
  private readonly told = new Set<string>();

  /**
   * Each root's walk, for the other checks that read the root after a command to share (the nested
   * repositories' git metadata): one reading serves all.
   */
  readonly walkOf: (root: string) => SharedWorkTreeWalk;

  /** `cacheDir`: the agent's cache, where the empty file bound over each secret file is made. */
  constructor(
    private readonly cacheDir: string,
    /** Whether plain-named files are scanned for tokens and shown as redacted copies (TokenFiles). */
    private readonly scanTokens = false,
    private readonly bounds: SecretWalkBounds = SECRET_WALK_BOUNDS,
    /** The clock files and folders are judged settled on (tests move it). */
    private readonly now: () => number = Date.now,
  ) {
    this.copies = new RedactedCopies(cacheDir);
    this.walkOf = sharedWalksByRoot(now);
  }

  /** What is bound over each secret file (made at the first command, not at the session's start). */
  bindSource(): string {
    this.emptyFile ??= emptyBindSource(this.cacheDir);
    return this.emptyFile;
  }

  /**
   * What a command's sandbox binds over the secret files of `roots` as of the last reading: the empty
   * file, or a file's redacted copy; not the files `shown` (a secret read the person approved).
   */
  async bindsFor(roots: readonly string[], shown: readonly string[]): Promise<SecretFileBinds> {
    const { files, copies } = await this.binds(roots);
    return { files: withoutShown(files, shown), source: this.bindSource(), copies };
  }

  /** What the files of `roots` are as of the last reading (the first call for a root reads now). */
  async files(roots: readonly string[]): Promise<string[]> {
    return (await this.binds(roots)).files;
  }

  /**
   * The files of `roots` to bind over, as of the last reading (the first call for a root reads now),
   * and the redacted copy of those that have one (the empty file is bound over the rest).
   */
  async binds(roots: readonly string[]): Promise<{ files: string[]; copies: ReadonlyMap<string, string> }> {
    const walks = await Promise.all(roots.map((root) => this.readingOf(root)));
    // A file removed since the walk is not bound (bwrap would make an empty one in its place).
    // An `.npmrc` is among both (hidden by its copy): bound once.
    const files = [
      ...new Set(walks.flatMap((walk) => [...walk.files, ...(walk.copies?.keys() ?? [])])),
    ].filter(isRegularFile);
    const copies = new Map(walks.flatMap((walk) => [...(walk.copies ?? [])]));
    this.noteNewCopies(copies);
    return { files, copies };
  }

  private untold: string[] = [];

  /** Files newly shown as copies: said once, in the result of the next command that ends. */
  private noteNewCopies(copies: ReadonlyMap<string, string>): void {
    for (const file of copies.keys())
      if (!this.told.has(file)) {
        this.told.add(file);
        this.untold.push(file);
      }
  }

  /**
   * What to tell of the files commands see as redacted copies, not told yet (null when nothing): a
   * command that writes one fails ("Read-only file system"), and the model should know why.
   */
  takeNote(): string | null {
    if (this.untold.length === 0) return null;
    const files = this.untold.splice(0);
    const shown =
      files.slice(0, MAX_NAMED).join(', ') +
      (files.length > MAX_NAMED ? `, and ${files.length - MAX_NAMED} more` : '');
    return `The sandbox shows commands these files with each token (or npm credential) in them replaced, read-only: ${shown}. A command cannot write them ("Read-only file system"); to change one, ask the person to run the command outside the sandbox or edit it with the file tools.`;
  }

  /** Removes the redacted copies (the session is over, no command runs). */
  dispose(): void {
    this.copies.dispose();
  }

  /**
   * Read every root again (after a reading under way, not beside it), every file's stat looked at
   * again: a turn begins (the person's edits happen between turns; the reading runs while the model
   * is asked). Before the first command, the first reading of `roots` starts now.
   */
  refresh(roots: readonly string[] = []): void {
    this.readAgain(undefined);
    for (const root of roots.filter((root) => !this.readings.has(root))) this.readingOf(root);
  }

  /**
   * Read every root again after a command ended: every folder is looked at (a `.env` it made is
   * hidden from the next command), but the token scan stats only the files of the folders whose
   * listing changed (files made, removed or renamed in) and the files the command's words name
   * (`named`, real paths), not every file of the tree (~13 ms of CPU on 4,000 files, at every
   * command). A file the command wrote in place without naming it is looked at when the next turn
   * begins. That is no new exposure: a command in the sandbox that writes a token into a file had
   * the token (it read it where every other command can, or it is one the person let read a secret
   * file and named the file it wrote); the next command could get it the same way. What is left: a
   * process outside the sandbox (a command the person let run outside it, a program of theirs)
   * writing a token into an existing file in the middle of a turn — commands see it until the turn
   * ends, as they saw anything that process wrote before this scan existed.
   */
  commandEnded(named: readonly string[] = []): void {
    this.readAgain({ named: new Set(named) });
  }

  private readAgain(after: { readonly named: ReadonlySet<string> } | undefined): void {
    for (const [root, before] of this.readings) {
      // Asked for now, to share the reading the other checks ask for as a command ends (the walk
      // starts it after the one under way); settles after the last reading, whatever that came to.
      const next = this.secretWalkOf(root).read(after);
      next.catch(() => undefined);
      const reading = before.then(
        () => next,
        () => next,
      );
      noteReadingUnderWay(reading);
      this.readings.set(root, reading);
    }
  }

  private sayBound: (note: string) => void = () => undefined;
  /**
   * What to say, once, when a reading first stops at its bound (the files it found are hidden, not
   * those past it). Settles only then: most sessions never hit it.
   */
  readonly boundHit: Promise<string> = new Promise((settle) => {
    this.sayBound = settle;
  });

  private secretWalkOf(root: string): SecretFilesWalk {
    let walk = this.walks.get(root);
    if (walk === undefined) {
      walk = new SecretFilesWalk(
        root,
        this.bounds,
        this.now,
        this.walkOf(root),
        new TokenFiles(this.copies, this.scanTokens, TOKEN_SCAN_BOUNDS, this.now),
      );
      this.walks.set(root, walk);
    }
    return walk;
  }

  private readingOf(root: string): Promise<SecretWalk> {
    let reading = this.readings.get(root);
    if (reading === undefined) {
      reading = this.secretWalkOf(root).read();
      noteReadingUnderWay(reading);
      this.readings.set(root, reading);
      void reading.then((walk) => {
        // A promise settles once: said for the first root whose reading hit a bound.
        if (walk.boundHit !== null) this.sayBound(boundNote(root, this.bounds, walk.boundHit));
      });
    }
    return reading;
  }
}

const MIB = 1024 * 1024;

/** Files a note names, at most. */
const MAX_NAMED = 10;

function boundNote(root: string, bounds: SecretWalkBounds, hit: NonNullable<SecretWalk['boundHit']>): string {
  if (hit === 'content')
    return `The sandbox scans the files of ${root} for tokens ${TOKEN_SCAN_BOUNDS.readingBytes / MIB} MiB at a time: until it has read them all (at the next commands), a file it has not read yet is shown to commands as it is.`;
  return `The sandbox looked for secret files (.env, keys, credentials) in ${root} only down to its bound (${bounds.maxEntries} entries, ${bounds.maxDepth} folders down, ${bounds.maxFiles} secret files): those it found read as empty to commands, any past the bound do not.`;
}

/** The hidden files a command whose secret read the person approved sees: those it named. */
export function withoutShown(files: readonly string[], shown: readonly string[]): readonly string[] {
  if (shown.length === 0) return files;
  return files.filter((file) => !shown.includes(file));
}

/** Whether `file` is inside one of `folders` (hidden whole already: nothing to bind in it). */
export function insideAny(file: string, folders: readonly string[]): boolean {
  return folders.some((folder) => isWithinDirectory(file, folder));
}

/**
 * The paths a command's words name, resolved against `cwd` (a real path): what a command the person
 * approved as a secret read may see of the hidden files (`cat .env`, `base64 < sub/.env`,
 * `--env-file=prod.env`). Only the hidden files among them are shown; a word no file is costs nothing.
 */
export function pathsNamedBy(command: string, cwd: string): string[] {
  const paths = command
    .split(/[\s;|&<>()'"`=]+/)
    .filter((word) => word !== '' && !word.startsWith('-'))
    .map((word) => resolve(cwd, word));
  // A symlink named (`cat .env`, `.env -> config/prod-values`): the file hidden is its target.
  return paths.concat(paths.map(realOrGiven).filter((real, i) => real !== paths[i]));
}

function realOrGiven(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
}

/**
 * An empty, read-only regular file in the agent's cache (hidden from commands itself), bound over
 * each secret file of the workspace: a command reads it as empty (a test that loads `.env` when
 * present still runs) and a write to it fails as a read-only file system. `/dev/null`, which hides
 * the home's credentials, refuses both with "Permission denied" there (the workspace's mount has no
 * devices), so it is the fallback only when the cache cannot hold the file.
 */
export function emptyBindSource(cacheDir: string): string {
  try {
    mkdirSync(cacheDir, { recursive: true });
    const file = join(realpathSync(cacheDir), 'sandbox-empty-file');
    const stat = lstatSync(file, { throwIfNoEntry: false });
    if (stat?.isFile() && stat.size === 0) return file;
    if (stat !== undefined) rmSync(file, { force: true, recursive: true });
    // Writable by its owner: the read-only bind is what refuses a write ("Read-only file system", where a
    // mode without write would say "Permission denied", as if the file were someone else's).
    writeFileSync(file, '', { mode: 0o600, flag: 'wx' });
    return file;
  } catch {
    return '/dev/null';
  }
}
