import type { Session } from '../session/session.js';
import { updateSessionState } from '../session/state.js';
import { wireEvent } from '../wire/events.js';
import { appendWireMessages } from '../wire/wire-file.js';
import type { PlanModeHandlers } from './extension.js';

/**
 * Plan mode as the session, its commands and its front ends see it: the plan-mode extension's
 * handlers when it is set up, else only the flag in state.json.
 */
export class PlanModeSwitch {
  constructor(
    private readonly handlers: PlanModeHandlers | undefined,
    private readonly session: Session,
  ) {}

  get isActive(): boolean {
    return this.handlers?.isActive() ?? false;
  }

  /** Switches plan mode and records a StatusUpdate in the wire file. */
  async set(enabled: boolean): Promise<void> {
    if (this.handlers) await this.handlers.set(enabled);
    else await updateSessionState(this.session.stateFile, (s) => ({ ...s, plan_mode: enabled }));
    await appendWireMessages(this.session.wireFile, [wireEvent('StatusUpdate', { plan_mode: enabled })]);
  }

  readPlan(): Promise<string | null> {
    return this.handlers?.readPlan() ?? Promise.resolve(null);
  }

  async clearPlan(): Promise<void> {
    await this.handlers?.clearPlan();
  }
}
