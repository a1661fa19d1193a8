import { describe, expect, it } from 'vitest';
import { ShutdownList } from './shutdown-list.js';

describe('ShutdownList', () => {
  it('runs the steps once, last added first; a second close waits for the same run', async () => {
    const order: string[] = [];
    let release!: () => void;
    const list = new ShutdownList();
    list.add(async () => {
      order.push('first added');
    });
    list.add(
      () =>
        new Promise<void>((resolve) => {
          order.push('waits');
          release = resolve;
        }),
    );
    const one = list.runAll();
    let secondDone = false;
    const two = list.runAll().then(() => {
      secondDone = true;
    });
    await Promise.resolve();
    expect(secondDone).toBe(false);
    release();
    await Promise.all([one, two]);
    expect(order).toEqual(['waits', 'first added']);
  });

  it('abandon gives up what the close waits for, also when the close has begun', async () => {
    const list = new ShutdownList();
    const events: string[] = [];
    let stop!: () => void;
    const work = new Promise<void>((resolve) => {
      stop = resolve;
    });
    list.add(async () => {
      events.push('close waits');
      await work;
      events.push('close done');
    });
    list.onAbandon(() => {
      events.push('abandoned');
      stop();
    });
    const closing = list.runAll();
    expect(events).toEqual(['close waits']);
    // The close cannot finish on its own: only the abandon step ends the work it waits for.
    await list.runAll({ abandon: true });
    await closing;
    expect(events).toEqual(['close waits', 'abandoned', 'close done']);
  });

  it('a failing step or abandon step does not stop the others', async () => {
    const list = new ShutdownList();
    const ran: string[] = [];
    list.add(async () => {
      ran.push('first added');
    });
    list.add(async () => {
      throw new Error('cannot stop');
    });
    list.onAbandon(() => {
      throw new Error('cannot abandon');
    });
    list.onAbandon(() => ran.push('second abandon'));
    await list.runAll({ abandon: true });
    expect(ran).toEqual(['second abandon', 'first added']);
  });
});
