import { describe, expect, test } from 'vitest';
import { currentWire, runWithWire, wireSend } from './current-wire.js';
import { wireEvent } from './events.js';
import { Wire } from './wire.js';

describe('current wire', () => {
  test('wireSend reaches the wire of the enclosing run, across awaits, and nested runs see their own', async () => {
    const outer = new Wire();
    const inner = new Wire();
    const outerSeen = outer.subscribe({ merge: false });
    const innerSeen = inner.subscribe({ merge: false });
    await runWithWire(outer, async () => {
      wireSend(wireEvent('StepBegin', { n: 1 }));
      await runWithWire(inner, async () => {
        await Promise.resolve();
        wireSend(wireEvent('StepBegin', { n: 2 }));
      });
      await new Promise<void>((resolve) => setImmediate(resolve));
      expect(currentWire()).toBe(outer);
      wireSend(wireEvent('StepBegin', { n: 3 }));
    });
    expect(currentWire()).toBeNull();
    expect(outerSeen.takeAll().map((m) => m.payload)).toEqual([{ n: 1 }, { n: 3 }]);
    expect(innerSeen.takeAll().map((m) => m.payload)).toEqual([{ n: 2 }]);
  });

  test('wireSend outside any run throws a clear error', () => {
    expect(() => wireSend(wireEvent('TurnEnd', {}))).toThrow(
      'wireSend(TurnEnd) was called with no current wire: wire messages can only be sent from code running inside runSoul (or runWithWire).',
    );
  });
});
