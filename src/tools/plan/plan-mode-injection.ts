import { access } from 'node:fs/promises';
import type { Message } from '../../kosong/index.js';
import type { PlanModeController } from '../runtime.js';
import {
  containsPlanReminder,
  fullPlanReminder,
  type ReminderFacts,
  reentryPlanReminder,
  sparsePlanReminder,
} from './plan-reminders.js';

/** A reminder is due again once this many assistant messages followed the last one. */
export const REMINDER_INTERVAL = 5;
/** Every this-many-th reminder is the full text; the others are short. */
export const FULL_REMINDER_EVERY = 5;

/** What the injection needs of plan mode (SessionPlanMode provides it). */
export interface PlanReminderSource extends PlanModeController {
  /** True once after a UI turned plan mode on. */
  consumeActivationReminder(): boolean;
}

/**
 * Reminds the root agent that plan mode is on (reference §1.13). Shape of the soul's
 * `DynamicInjection`: called before every step with the history, it returns a reminder or null.
 *
 * - A UI just turned plan mode on: the full reminder (or the re-entry one if a plan file exists).
 * - No reminder anywhere in the history (first step, or compaction removed it): the full reminder.
 * - Otherwise nothing until 5 assistant messages have followed the last reminder; then a reminder,
 *   full every 5th time, short in between.
 *
 * Spacing is measured on the history rather than counted here, so it stays right across restarts,
 * D-Mail reverts and compaction.
 */
export class PlanModeInjection {
  readonly name = 'plan_mode';
  /** Reminders given since the last full restart of the cycle (1 = a full one was just given). */
  private injected = 0;

  constructor(
    private readonly planMode: PlanReminderSource,
    private readonly isAfk: () => boolean,
  ) {}

  async inject({ history }: { history: readonly Message[]; stepNo: number }): Promise<string | null> {
    if (!this.planMode.isActive()) {
      this.injected = 0;
      return null;
    }
    const facts = await this.facts();
    if (this.planMode.consumeActivationReminder()) {
      this.injected = 1;
      return facts.planFileExists ? reentryPlanReminder(facts) : fullPlanReminder(facts);
    }
    const since = assistantMessagesSinceLastReminder(history);
    if (since === null) {
      this.injected = 1;
      return fullPlanReminder(facts);
    }
    if (since < REMINDER_INTERVAL) return null;
    this.injected++;
    return this.injected % FULL_REMINDER_EVERY === 1 ? fullPlanReminder(facts) : sparsePlanReminder(facts);
  }

  /** Nothing to reset: the history no longer holds a reminder, so the next step gets a full one. */
  onCompacted(): void {}

  private async facts(): Promise<ReminderFacts> {
    const planFilePath = this.planMode.planFilePath();
    return {
      planFilePath,
      planFileExists: planFilePath !== null && (await exists(planFilePath)),
      afk: this.isAfk(),
    };
  }
}

/** Assistant messages after the most recent reminder, or null when the history holds none. */
export function assistantMessagesSinceLastReminder(history: readonly Message[]): number | null {
  let count = 0;
  for (let i = history.length - 1; i >= 0; i--) {
    const message = history[i]!;
    if (
      message.role === 'user' &&
      message.content.some((p) => p.type === 'text' && containsPlanReminder(p.text))
    )
      return count;
    if (message.role === 'assistant') count++;
  }
  return null;
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
