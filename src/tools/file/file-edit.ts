import { resolve } from 'node:path';
import { type ToolReturnValue, toolError } from '../../kosong/index.js';
import { realPathOf } from '../../policy/index.js';
import type { ApprovalPlan } from '../../toolset/tool-definition.js';
import type { PlanModeController } from '../runtime.js';
import type { DiffBlock } from './diff-blocks.js';
import type { DecidedTarget } from './no-follow-write.js';
import type { Workspace } from './workspace-path.js';

/** Approval actions: what "approve for session" remembers (Kimi CLI's strings, so habits carry over). */
export const EDIT_ACTION = 'edit file';
export const EDIT_OUTSIDE_ACTION = 'edit file outside of working directory';

export interface FileEditContext {
  readonly workspace: Workspace;
  readonly planMode: PlanModeController;
}

/** A change to one file, worked out but not yet written. */
export interface PlannedChange {
  /** Absolute path of the file. */
  path: string;
  outsideWorkspace: boolean;
  /** The file is the current plan file and plan mode is on. */
  isPlanFile: boolean;
  display: DiffBlock[];
}

export type Prepared<C extends PlannedChange> =
  | { ok: true; change: C }
  | { ok: false; error: ToolReturnValue };

export function isCurrentPlanFile(planMode: PlanModeController, path: string): boolean {
  const planFile = planMode.isActive() ? planMode.planFilePath() : null;
  return planFile !== null && resolve(planFile) === path;
}

/** In plan mode only the plan file may change; null when this path may. */
export function planModeRefusal(planMode: PlanModeController, path: string): ToolReturnValue | null {
  if (!planMode.isActive() || isCurrentPlanFile(planMode, path)) return null;
  return toolError(
    `Plan mode is active. You may only edit the current plan file: \`${planMode.planFilePath() ?? '(none)'}\`.`,
    'Plan mode restriction',
  );
}

type ApprovalDecision =
  | { kind: 'refused'; error: ToolReturnValue }
  | { kind: 'plan-file'; real: string }
  | { kind: 'asked'; real: string };

/** A change ready to run, with the file it may land in (as decided when it was approved). */
export type PreparedCall<C extends PlannedChange> =
  | { ok: true; change: C; target: DecidedTarget }
  | { ok: false; error: ToolReturnValue };

/**
 * The toolset asks for approval (using the tool's `approval`) before it runs the call, and passes the
 * same params object to both. This remembers what was decided per call, so the call never does more
 * than was approved: a call judged to be refused stays refused even if the file system changed in
 * between, and a plan-file write that was waved through is not carried out once plan mode is over.
 */
export class EditApprovals<P extends object, C extends PlannedChange> {
  private readonly decisions = new WeakMap<P, ApprovalDecision>();

  constructor(
    private readonly prepare: (params: P) => Promise<Prepared<C>>,
    private readonly verb: 'Write' | 'Edit',
  ) {}

  async approval(params: P): Promise<ApprovalPlan> {
    const prepared = await this.prepare(params);
    if (!prepared.ok) {
      this.decisions.set(params, { kind: 'refused', error: prepared.error });
      return { autoApprove: 'the call is refused before it changes anything' };
    }
    const { change } = prepared;
    // The real file is fixed here, before anyone is asked: the write later lands there or nowhere.
    const real = await realPathOf(change.path);
    if (change.isPlanFile) {
      this.decisions.set(params, { kind: 'plan-file', real });
      return { autoApprove: 'the current plan file may be edited freely in plan mode' };
    }
    this.decisions.set(params, { kind: 'asked', real });
    const really = real === change.path ? '' : ` (through a symlink: the file written is \`${real}\`)`;
    return {
      action: change.outsideWorkspace ? EDIT_OUTSIDE_ACTION : EDIT_ACTION,
      description: `${this.verb} file \`${change.path}\`${really}`,
      display: change.display,
    };
  }

  /** Prepares the change again at call time, within what the approval step decided. */
  async prepareCall(params: P): Promise<PreparedCall<C>> {
    const decision = this.decisions.get(params);
    this.decisions.delete(params);
    if (decision?.kind === 'refused') return { ok: false, error: decision.error };
    const prepared = await this.prepare(params);
    if (!prepared.ok) return prepared;
    if (decision?.kind === 'plan-file' && !prepared.change.isPlanFile) {
      return {
        ok: false,
        error: toolError(
          'Plan mode ended before this change ran, so it was not applied without approval. Call the tool again.',
          'Plan mode changed',
        ),
      };
    }
    // Called without an approval step (a direct call): decided now.
    const real = decision?.real ?? (await realPathOf(prepared.change.path));
    return { ok: true, change: prepared.change, target: { path: prepared.change.path, real } };
  }
}
