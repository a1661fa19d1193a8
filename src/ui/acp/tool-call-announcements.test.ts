import { describe, expect, it } from 'vitest';
import { ToolCallAnnouncements } from './tool-call-announcements.js';

describe('ToolCallAnnouncements', () => {
  it('lets a waiter through once the call is announced, at once if it already was', async () => {
    const announcements = new ToolCallAnnouncements();
    const signal = new AbortController().signal;
    let through = false;
    const waiting = announcements.wait('c1', signal).then(() => {
      through = true;
    });
    await Promise.resolve();
    expect(through).toBe(false);
    announcements.mark('c1');
    await waiting;
    expect(through).toBe(true);
    await expect(announcements.wait('c1', signal)).resolves.toBeUndefined();
  });

  it('rejects a waiter whose call is cancelled and releases the rest when the turn ends', async () => {
    const announcements = new ToolCallAnnouncements();
    const cancel = new AbortController();
    const cancelled = announcements.wait('c1', cancel.signal);
    cancel.abort(new Error('stop'));
    await expect(cancelled).rejects.toThrow('stop');
    const left = announcements.wait('c2', new AbortController().signal);
    announcements.endTurn();
    await expect(left).resolves.toBeUndefined();
    // A new turn starts with nothing announced.
    let through = false;
    void announcements.wait('c2', new AbortController().signal).then(() => {
      through = true;
    });
    await Promise.resolve();
    expect(through).toBe(false);
  });
});
