import { describe, expect, it } from 'vitest';
import { AfkReminder } from './afk-reminder.js';

describe('AfkReminder', () => {
  it('reminds once per afk period and again after compaction', () => {
    let afk = false;
    const reminder = new AfkReminder(() => afk);
    expect(reminder.inject()).toBeNull();
    afk = true;
    expect(reminder.inject()).toContain('away from the keyboard');
    expect(reminder.inject()).toBeNull();
    reminder.onCompacted();
    expect(reminder.inject()).toContain('afk');
    afk = false;
    expect(reminder.inject()).toBeNull();
    afk = true;
    expect(reminder.inject()).not.toBeNull();
  });
});
