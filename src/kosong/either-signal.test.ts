import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { EitherSignal } from './either-signal.js';

describe('EitherSignal', () => {
  it.each([0, 1])('aborts with the reason of source %i, the first to abort, and unhooks itself', (which) => {
    const sources = [new AbortController(), new AbortController()];
    const [first, other] = which === 0 ? sources : [...sources].reverse();
    const either = new EitherSignal(sources[0]!.signal, sources[1]!.signal);
    expect(either.signal.aborted).toBe(false);
    first!.abort(new Error(`source ${which}`));
    other!.abort(new Error('later'));
    expect(either.signal.reason).toEqual(new Error(`source ${which}`));
    for (const source of sources) expect(getEventListeners(source.signal, 'abort')).toHaveLength(0);
  });

  it('is aborted from the start when a source already is', () => {
    const done = AbortSignal.abort(new Error('before'));
    const either = new EitherSignal(new AbortController().signal, done);
    expect(either.signal.reason).toEqual(new Error('before'));
  });

  it('leaves no listener on a long-lived signal once released', () => {
    const turn = new AbortController();
    for (let step = 0; step < 100; step++)
      new EitherSignal(turn.signal, new AbortController().signal).release();
    expect(getEventListeners(turn.signal, 'abort')).toHaveLength(0);
    turn.abort();
  });
});
