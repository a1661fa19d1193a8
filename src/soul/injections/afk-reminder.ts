import type { DynamicInjection } from '../soul-parts.js';

const AFK_REMINDER =
  'The user is away from the keyboard (afk mode). Nobody will answer questions or approve actions: ' +
  'actions are approved automatically and questions are dismissed. Make reasonable decisions on your ' +
  'own, state your assumptions, and finish the task without waiting for input.';

/**
 * Tells the model once that nobody is at the keyboard while the persisted afk flag is on. It is
 * re-armed when afk is switched on again or after compaction removed the earlier reminder.
 */
export class AfkReminder implements DynamicInjection {
  readonly name = 'afk';
  private armed = true;
  private wasAfk = false;

  constructor(private readonly isAfk: () => boolean) {}

  inject(): string | null {
    const afk = this.isAfk();
    if (afk && !this.wasAfk) this.armed = true;
    this.wasAfk = afk;
    if (!afk || !this.armed) return null;
    this.armed = false;
    return AFK_REMINDER;
  }

  onCompacted(): void {
    this.armed = true;
  }
}
