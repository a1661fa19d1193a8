import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Config } from '../config/schema.js';
import {
  addDeclinedFolder,
  addTrustedFolder,
  isCoveredBy,
  isListedIn,
  readTrustRecord,
  TrustRecordError,
  trustedFoldersFile,
} from '../config/trusted-folders.js';

/** Why a folder is trusted: the trust record, `--trust-workspace`, `[trust] folders`, or an answer. */
export type TrustSource = 'record' | 'flag' | 'config' | 'client' | 'person';

/**
 * The trust of one work dir, as a front end sees it: whether the workspace's own configuration
 * (its rules file's allow rules) is in force, what trusting it would enable, and how to trust it.
 */
export interface WorkspaceTrustView {
  /** The work dir's real path: what is trusted (a symlink is trusted as where it points). */
  readonly folder: string;
  /** The folder itself is trusted: its own allow rules are in force. */
  readonly trusted: boolean;
  readonly source: TrustSource | null;
  /**
   * A trusted folder above an untrusted work dir (the trust record or `[trust] folders`). It covers
   * the work dir for git, not for the work dir's own allow rules: a command run in a session of the
   * parent may have written them (the sandbox holds only a session's own `.kimi-ts` read-only).
   */
  readonly trustedParent: string | null;
  /** Whether kimi-ts may run git in the work dir itself: trusted, or below a trusted folder. */
  readonly gitAllowed: boolean;
  /** What trust would put in force here ("2 allow rules in /w/.kimi-ts/permissions.toml"); empty: nothing. */
  readonly enables: readonly string[];
  /**
   * Each allow rule trust would put in force, as written (`Shell(npm test)`, its reason after
   * ` — `), in the file's order: every front end's trust question lists them all (issue #24), so a
   * rule planted beside the person's own is seen before it is trusted. Raw text: a front end
   * reveals it.
   */
  readonly allowRules: readonly string[];
  /**
   * Whether a front end should ask: not trusted, trust would change something, and the person has
   * not said "No" for this folder before (the trust record remembers it).
   */
  readonly worthAsking: boolean;
  /** The person said "No" for this folder (now or in an earlier session): it is not asked again. */
  readonly declined: boolean;
  /**
   * Trusts the folder for this session; with `remember`, also for later sessions (the trust record
   * in the agent's home). The project's allow rules are in force from the next call on.
   */
  trust(options: { remember: boolean; source: 'client' | 'person' }): Promise<void>;
  /**
   * Records the person's "No" in the trust record: later sessions do not ask. A trust by the record
   * of exactly this folder is taken out (this session keeps what it has; the next starts untrusted).
   */
  decline(): Promise<void>;
}

/** Whether a work dir is trusted at start, and by what. */
export async function startingTrust(parts: {
  workDir: string;
  home: string;
  userHome: string;
  config: Config;
  /** `--trust-workspace`. */
  flag: boolean | undefined;
}): Promise<{
  folder: string;
  /** What trusts the folder itself (its allow rules in force); null: not trusted itself. */
  source: TrustSource | null;
  /** Set when the folder is not trusted itself but lies below a trusted one. */
  trustedParent: string | null;
  recordProblem: string | null;
  /** The person said "No" for exactly this folder before. */
  declined: boolean;
  /** Every folder the trust record and `[trust] folders` trust (real paths). */
  trustedFolders: readonly string[];
}> {
  const folder = await realpath(parts.workDir).catch(() => resolve(parts.workDir));
  let recordProblem: string | null = null;
  const record = await readTrustRecord(trustedFoldersFile(parts.home)).catch((error: unknown) => {
    // A record that cannot be read trusts nothing; the session starts untrusted and says why.
    if (error instanceof TrustRecordError) recordProblem = error.message;
    else recordProblem = `The trust record cannot be read: ${(error as Error).message}`;
    return { folders: [] as string[], declined: [] as string[] };
  });
  const configured = await Promise.all(
    parts.config.trust.folders.map((entry) => {
      const path = configuredTrustPath(entry, parts.userHome);
      return realpath(path).catch(() => path);
    }),
  );
  // Read with the flag too: the session's sandbox holds the rules of the trusted folders inside its
  // workspace (src/app/session-guards.ts).
  const trustedFolders = [...record.folders, ...configured];
  const trusted = (source: TrustSource) =>
    ({ folder, source, trustedParent: null, recordProblem, declined: false, trustedFolders }) as const;
  if (parts.flag) return trusted('flag');
  const declined = record.declined.includes(folder);
  if (isListedIn(folder, record.folders)) return trusted('record');
  if (isListedIn(folder, configured)) return trusted('config');
  // Below a trusted folder: covered for git, but its own allow rules wait for its own trust.
  const trustedParent = trustedFolders.find((root) => isCoveredBy(folder, [root])) ?? null;
  return { folder, source: null, trustedParent, recordProblem, declined, trustedFolders };
}

/** A `[trust] folders` entry as an absolute path, as given (`~` is the person's home; no symlink resolved). */
export function configuredTrustPath(entry: string, userHome: string): string {
  return resolve(userHome, entry.replace(/^~(?=$|[\\/])/, userHome));
}

/** The session's workspace trust: its state, and what happens when the person or a client trusts it. */
export class WorkspaceTrust implements WorkspaceTrustView {
  private current: TrustSource | null;
  private enabled: readonly string[] = [];
  private rules: readonly string[] = [];
  private readonly listeners: (() => void)[] = [];

  constructor(
    readonly folder: string,
    source: TrustSource | null,
    private readonly recordFile: string,
    private saidNo = false,
    readonly trustedParent: string | null = null,
    /** Every folder trusted at start (real paths): their rules files are held in the sandbox. */
    readonly trustedFolders: readonly string[] = [],
  ) {
    this.current = source;
  }

  get gitAllowed(): boolean {
    return this.trusted || this.trustedParent !== null;
  }

  get declined(): boolean {
    return this.saidNo;
  }

  get trusted(): boolean {
    return this.current !== null;
  }

  get source(): TrustSource | null {
    return this.current;
  }

  get enables(): readonly string[] {
    return this.trusted ? [] : this.enabled;
  }

  get allowRules(): readonly string[] {
    return this.trusted ? [] : this.rules;
  }

  get worthAsking(): boolean {
    return !this.trusted && !this.saidNo && this.enabled.length > 0;
  }

  /**
   * What trust would put in force (set by the parts that hold something back): the summary and
   * each allow rule as written.
   */
  setHeldBack(items: readonly string[], allowRules: readonly string[] = []): void {
    this.enabled = items;
    this.rules = allowRules;
  }

  /** Runs `listener` once the folder becomes trusted (e.g. the policy puts the project's rules in force). */
  onTrusted(listener: () => void): void {
    this.listeners.push(listener);
  }

  async trust(options: { remember: boolean; source: 'client' | 'person' }): Promise<void> {
    if (options.remember) await addTrustedFolder(this.recordFile, this.folder);
    this.saidNo = false;
    if (this.trusted) return;
    this.current = options.source;
    for (const listener of this.listeners) listener();
  }

  async decline(): Promise<void> {
    await addDeclinedFolder(this.recordFile, this.folder);
    this.saidNo = true;
  }
}
