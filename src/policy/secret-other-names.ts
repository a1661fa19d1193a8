import { statSync } from 'node:fs';

/**
 * Files secret by another name, as the workspace's secret walk last found them (workspace-secret-
 * walk.ts): the target of a secret-named symlink (`.env -> config/prod-values`), and the inodes of
 * secret files that have more than one name (a hard link `env-backup` of `.env`). The sandbox hides
 * them from commands; the file tools (ReadFile, Grep), which run in kimi-ts's own process, ask here.
 * Kept per walked root (a subagent's worktree is a root of its own), replaced at each reading.
 */
interface RootFindings {
  /** Real path → why (the symlink's name and its reason). */
  readonly targets: ReadonlyMap<string, string>;
  /** `dev:ino` of a secret file with more than one name → why. */
  readonly inodes: ReadonlyMap<string, string>;
}

const byRoot = new Map<string, RootFindings>();
/** Whether any root has findings: most sessions have none, and a look-up then costs nothing. */
let anyTargets = false;
let anyInodes = false;

export function noteOtherNames(
  root: string,
  targets: ReadonlyMap<string, string>,
  inodes: ReadonlyMap<string, string>,
): void {
  if (targets.size === 0 && inodes.size === 0) byRoot.delete(root);
  else byRoot.set(root, { targets, inodes });
  anyTargets = false;
  anyInodes = false;
  for (const findings of byRoot.values()) {
    anyTargets ||= findings.targets.size > 0;
    anyInodes ||= findings.inodes.size > 0;
  }
}

/** The key a secret file's inode is known by. */
export function inodeKey(dev: number | bigint, ino: number | bigint): string {
  return `${dev}:${ino}`;
}

/**
 * Why the file at `real` (a real path) is secret by another name the walk found, or null: the
 * target of a secret-named symlink, or a hard link of a secret file (one stat, only when the walk
 * found a secret file with more than one name).
 */
export function otherNameSecretReason(real: string): string | null {
  if (anyTargets)
    for (const findings of byRoot.values()) {
      const reason = findings.targets.get(real);
      if (reason !== undefined) return reason;
    }
  if (!anyInodes) return null;
  let info: ReturnType<typeof statSync>;
  try {
    info = statSync(real, { throwIfNoEntry: false });
  } catch {
    return null;
  }
  if (!info?.isFile() || info.nlink < 2) return null;
  const key = inodeKey(info.dev, info.ino);
  for (const findings of byRoot.values()) {
    const reason = findings.inodes.get(key);
    if (reason !== undefined) return reason;
  }
  return null;
}

/** The readings of the walk under way: a file tool's check waits for them (see walksSettled). */
const underWay = new Set<Promise<unknown>>();

/** A reading of the walk started: file tools' checks wait for it to settle. */
export function noteReadingUnderWay(reading: Promise<unknown>): void {
  underWay.add(reading);
  const done = () => {
    underWay.delete(reading);
  };
  reading.then(done, done);
}

/**
 * Settles when the walks under way have: the turn's first reading starts as the model is asked, and
 * a ReadFile of `env-backup` decided before it ends would not know `.env`'s other names. Null when
 * none is under way (most calls: no microtask waited on).
 */
export function walksSettled(): Promise<void> | null {
  if (underWay.size === 0) return null;
  return Promise.allSettled([...underWay]).then(() => undefined);
}
