import type { PlanModeView } from '../policy/index.js';
import { updateSessionState } from '../session/state.js';
import { type PlanModeFields, type PlanModeStateAccess, planFileOf } from '../tools/plan/plan-mode.js';

/**
 * Plan mode's fields as the session holds them, created before the policy: the policy reads it at
 * each decision (on or off, the plan file), the plan-mode extension's controller reads and writes it
 * (persisted in state.json). One object from the start, so no policy ever runs without plan mode.
 */
export class PlanModeState implements PlanModeView, PlanModeStateAccess {
  private fields: PlanModeFields;

  constructor(
    initial: PlanModeFields,
    private readonly plansDir: string,
    /** The session's state.json; none: kept in memory only. */
    private readonly stateFile?: string | undefined,
  ) {
    this.fields = { ...initial };
  }

  isActive(): boolean {
    return this.fields.plan_mode;
  }

  planFilePath(): string | null {
    return planFileOf(this.fields, this.plansDir);
  }

  read(): PlanModeFields {
    return { ...this.fields };
  }

  /** Saved first; in force once saved (as the controller switches). */
  async write(next: PlanModeFields): Promise<void> {
    const { stateFile } = this;
    if (stateFile) await updateSessionState(stateFile, (s) => ({ ...s, ...next }));
    this.fields = { ...next };
  }
}
