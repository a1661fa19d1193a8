import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import type { DisplayBlock } from '../../kosong/index.js';
import type { FileTarget, PolicyDecision, SessionPolicy } from '../../policy/index.js';
import type { FileChange } from '../../session/checkpoints/restore-plan.js';
import { assertNever } from '../../util/assert-never.js';
import { displayPath } from './restore-files.js';

/** What approve-for-session remembers for a rewind's files. */
export const REWIND_FILES_ACTION = 'rewind files';

/** A rewind's writes are judged by the rules of the edit tools as well as by Rewind's own. */
const RULE_NAMES = ['WriteFile', 'StrReplaceFile'];

/** At most this many files' facts are shown in the one approval request. */
const NOTED = 20;

/** The policy's word on each file of a restore, gathered into one decision for the person. */
export interface RestoreVerdict {
  /** The whole restore is refused (plan mode): nothing is written. */
  refusal: string | null;
  /** The files the restore may write or remove (after the question, if there is one). */
  allowed: FileChange[];
  /** Files the policy forbids, or that now lead outside the workspace: left as they are. */
  kept: { change: FileChange; reason: string }[];
  /** The question to ask first, or null when the policy allows every file (yolo, allow rules). */
  question: {
    /** The policy's facts for the files it asks about (secret, a rule asks, a real path elsewhere). */
    notes: string[];
    display: DisplayBlock[];
    evenIfAutoApproving: boolean;
  } | null;
}

/**
 * Where a restore's write of `path` really lands. Like the policy's `realPathOf`, but a folder on the
 * way that the restore itself removes first (a symlink or a file where the checkpoint had a folder)
 * counts as the new folder it becomes, and the last part is not followed: the restore renames over
 * a symlink there, it never writes through it.
 */
async function restoreTarget(
  roots: readonly string[],
  root: string,
  change: FileChange,
  removed: ReadonlySet<string>,
  realOf: (path: string) => Promise<string | null>,
): Promise<FileTarget> {
  const parts = change.path.split('/');
  const absolute = join(root, ...parts);
  const realRoot = (await realOf(root)) ?? root;
  let real = realRoot;
  for (let i = 0; i < parts.length - 1; i++) {
    const prefix = `${change.root}/${parts.slice(0, i + 1).join('/')}`;
    const next = removed.has(prefix) ? null : await realOf(join(real, parts[i]!));
    if (next === null) {
      real = join(real, ...parts.slice(i, -1));
      break;
    }
    real = next;
  }
  real = join(real, parts.at(-1)!);
  return {
    given: displayPath(roots, change.root, change.path),
    absolute,
    real,
    viaSymlink: real !== join(realRoot, ...parts),
  };
}

/** A deny rule's reason is written for the model; the person gets its first sentence. */
function forPerson(reason: string): string {
  return reason.replace(/\s*Do not try to get around it\.?\s*$/, '');
}

/**
 * Asks the policy about every file a restore would write or remove, as it would about an edit tool's
 * write: deny rules and secret files apply, plan mode refuses, yolo and allow rules approve, and a
 * file whose real path now lies outside the workspace and its add-dirs (a symlink planted since) is
 * never touched.
 */
export async function judgeRestore(
  policy: SessionPolicy,
  roots: readonly string[],
  changes: readonly FileChange[],
): Promise<RestoreVerdict> {
  const verdict: RestoreVerdict = { refusal: null, allowed: [], kept: [], question: null };
  const removed = new Set(changes.filter((c) => c.kind === 'remove').map((c) => `${c.root}/${c.path}`));
  const realCache = new Map<string, Promise<string | null>>();
  const realOf = (path: string) => {
    let found = realCache.get(path);
    if (!found) {
      found = realpath(path).catch(() => null);
      realCache.set(path, found);
    }
    return found;
  };
  const notes: string[] = [];
  const display: DisplayBlock[] = [];
  let asked = false;
  let evenIfAutoApproving = false;
  for (const change of changes) {
    const root = roots[change.root];
    if (root === undefined) {
      verdict.kept.push({ change, reason: 'its folder is no longer part of the session' });
      continue;
    }
    const target = await restoreTarget(roots, root, change, removed, realOf);
    if ((await policy.roots.classify(target.real)) === 'outside') {
      verdict.kept.push({
        change,
        reason: `it now leads outside the workspace and its add-dirs (to ${target.real})`,
      });
      continue;
    }
    const decision: PolicyDecision = await policy.decide({
      toolName: 'Rewind',
      ruleNames: RULE_NAMES,
      effects: [{ kind: 'write', target }],
      question: {
        action: REWIND_FILES_ACTION,
        description: `${change.kind === 'remove' ? 'Remove' : 'Write'} ${target.given}`,
      },
    });
    switch (decision.decision) {
      case 'allow':
        verdict.allowed.push(change);
        break;
      case 'deny':
        if (decision.step === 'mode') return { ...verdict, refusal: decision.reason, allowed: [] };
        verdict.kept.push({ change, reason: forPerson(decision.reason) });
        break;
      case 'ask':
        verdict.allowed.push(change);
        asked = true;
        evenIfAutoApproving ||= decision.evenIfAutoApproving;
        // What the policy adds to a plain write inside the workspace is worth the person's eye.
        if (decision.step !== 'tool-default' || decision.display.length > 0) {
          if (notes.length < NOTED) notes.push(decision.description.replace(/\n/g, ' '));
          if (display.length < NOTED) display.push(...decision.display);
        }
        break;
      default:
        assertNever(decision, 'policy decision');
    }
  }
  if (asked) verdict.question = { notes, display, evenIfAutoApproving };
  return verdict;
}
