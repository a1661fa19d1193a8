import { join } from 'node:path';
import { applyRestore, type RestoreReport } from '../../session/checkpoints/apply-restore.js';
import type { CheckpointInfo, SkippedFile } from '../../session/checkpoints/checkpoint-info.js';
import type { CheckpointStore } from '../../session/checkpoints/checkpoint-store.js';
import { nestedRepositories } from '../../session/checkpoints/nested-repositories.js';
import { type FileChange, planRestore } from '../../session/checkpoints/restore-plan.js';
import { sanitizeOneLine, type TerminalSafe } from '../../util/sanitize-terminal.js';

/** A restore of the files worked out, not yet applied. */
export interface FilesPlan {
  store: CheckpointStore;
  /** The files now (recorded just before planning). */
  now: CheckpointInfo;
  /** The changes that take the files back, changed-elsewhere ones marked. */
  changes: FileChange[];
  /** Files the target checkpoint could not hold (too large, secret then) or that cannot be recorded now. */
  skipped: { path: string; reason: string }[];
}

/** How a file is named to the person and in RewindDone: relative in the work dir, absolute elsewhere. */
export function displayPath(roots: readonly string[], root: number, path: string): string {
  if (root === 0) return path;
  return join(roots[root] ?? `root-${root}`, ...path.split('/'));
}

/**
 * A path as a listing shows it: the work tree's names are anyone's (a command the model ran chose
 * them), so control characters and newlines show as visible symbols and each name keeps its line.
 */
export function listedPath(roots: readonly string[], root: number, path: string): TerminalSafe {
  return sanitizeOneLine(displayPath(roots, root, path));
}

/** Checkpoints made before nested repositories were recorded file by file hold such a folder as a gitlink. */
const NESTED_REPOSITORY =
  'a repository of its own, held by an older checkpoint as its commit, not its files; what changed inside it stays (use git there)';

const SKIP_REASONS: Record<SkippedFile['reason'], string> = {
  too_large: 'larger than the checkpoint size cap',
  sensitive: 'a sensitive file, never recorded',
};

/**
 * Plans going from the files of now back to `targetId`. Files the target did not record (too large or
 * secret then) and files that cannot be recorded now are left out of the plan and reported: removing
 * or overwriting them would lose bytes no checkpoint holds.
 */
export async function planFilesRestore(
  store: CheckpointStore,
  now: CheckpointInfo,
  targetId: string,
  elsewhereSpans: readonly (readonly [string, string])[],
  signal?: AbortSignal,
): Promise<FilesPlan> {
  const checkpoints = await store.list(signal);
  const target = checkpoints.find((c) => c.id === targetId);
  const modes = { now: now.modes, target: target?.modes ?? {} };
  const all = await planRestore(store.gitDir, now.id, targetId, { elsewhereSpans, modes, signal });
  const unrecorded = new Map<string, SkippedFile>();
  for (const file of [...(target?.skipped ?? []), ...now.skipped])
    unrecorded.set(`${file.root}/${file.path}`, file);
  const nested = await nestedRepositories(store.gitDir, [now.id, targetId], signal);
  const inNested = (key: string) => nested.some((repo) => key === repo || key.startsWith(`${repo}/`));
  const changes = all.filter((change) => {
    const key = `${change.root}/${change.path}`;
    return !unrecorded.has(key) && !inNested(key);
  });
  const skipped = [
    ...[...unrecorded.values()].map((file) => ({
      path: displayPath(store.roots, file.root, file.path),
      reason: SKIP_REASONS[file.reason],
    })),
    ...nested.map((key) => {
      const slash = key.indexOf('/');
      return {
        path: `${displayPath(store.roots, Number(key.slice(0, slash)), key.slice(slash + 1))}/`,
        reason: NESTED_REPOSITORY,
      };
    }),
  ];
  return { store, now, changes, skipped };
}

/** Counts for the summary the person approves. */
export function countChanges(changes: readonly FileChange[]): {
  restored: number;
  reverted: number;
  removed: number;
  elsewhere: number;
} {
  let restored = 0;
  let reverted = 0;
  let removed = 0;
  let elsewhere = 0;
  for (const change of changes) {
    if (change.changedElsewhere) elsewhere++;
    if (change.kind === 'restore') restored++;
    else if (change.kind === 'revert') reverted++;
    else removed++;
  }
  return { restored, reverted, removed, elsewhere };
}

const LISTED = 40;

/** `1 file`, `2 files`. */
export function filesCount(count: number): string {
  return `${count} ${count === 1 ? 'file' : 'files'}`;
}

/** The diff summary shown before the files are touched. */
export function describePlan(plan: FilesPlan): string {
  const { restored, reverted, removed, elsewhere } = countChanges(plan.changes);
  const counts = [
    reverted ? `${filesCount(reverted)} modified back` : '',
    restored ? `${filesCount(restored)} deleted since restored` : '',
    removed ? `${filesCount(removed)} created since removed` : '',
  ].filter(Boolean);
  const lines = [
    `Files: ${counts.join(', ') || 'none to change'}` +
      (elsewhere ? `; ${elsewhere} changed since by someone else` : ''),
  ];
  for (const change of plan.changes.slice(0, LISTED)) {
    const sign = change.kind === 'remove' ? '-' : change.kind === 'restore' ? '+' : '~';
    const note = change.changedElsewhere ? '  (changed since by someone else)' : '';
    lines.push(`  ${sign} ${listedPath(plan.store.roots, change.root, change.path)}${note}`);
  }
  if (plan.changes.length > LISTED) lines.push(`  … and ${plan.changes.length - LISTED} more`);
  for (const file of plan.skipped)
    lines.push(`  ! ${sanitizeOneLine(file.path)}: not restorable (${file.reason})`);
  return lines.join('\n');
}

/** Applies the plan; files changed elsewhere only with `includeElsewhere`. */
export function applyFilesPlan(
  plan: FilesPlan,
  includeElsewhere: boolean,
  signal?: AbortSignal,
): Promise<RestoreReport> {
  return applyRestore(plan.store.gitDir, plan.store.roots, plan.changes, {
    includeChangedElsewhere: includeElsewhere,
    signal,
    sessionId: plan.store.sessionId,
  });
}
