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
    let stop!: () => void;
    const work = new Promise<void>((resolve) => {
      stop = resolve;
    });
    list.add(() => work);
    list.onAbandon(() => stop());
    const closing = list.runAll();
    await list.runAll({ abandon: true });
    await closing;
  });
});
