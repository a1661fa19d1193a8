import type { AgentSession } from '../../app/agent-session.js';

/**
 * Shift-Tab: plan mode on or off through the session's own switch (the one `/plan on|off` and wire
 * `set_plan_mode` use), so the policy's plan-mode decisions, the reminder and state.json all follow.
 * As in Kimi CLI it applies at once, also while a turn runs: tools check plan mode when they are
 * called, and the next step gets the reminder. Presses faster than the switch each count: every one
 * flips the state the one before asked for, and the switches run in order.
 */
export class PlanModeToggle {
  /** The state the last press asked for, until its switch is done. */
  private wanted: boolean | null = null;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly session: Pick<AgentSession, 'planMode' | 'setPlanMode'>,
    /** Called with the session's plan mode after each switch. */
    private readonly onSwitched: (planMode: boolean) => void,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Flips plan mode; returns the state asked for. */
  toggle(): boolean {
    const next = !(this.wanted ?? this.session.planMode);
    this.wanted = next;
    this.queue = this.queue
      .then(() => this.session.setPlanMode(next))
      .then(
        () => this.onSwitched(this.session.planMode),
        (error: unknown) => this.onError(error),
      )
      .finally(() => {
        if (this.wanted === next) this.wanted = null;
      });
    return next;
  }

  /** Resolves once every switch asked for so far is done. */
  settled(): Promise<void> {
    return this.queue;
  }
}
