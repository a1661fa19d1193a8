import { describe, expect, it } from 'vitest';
import {
  type AskClient,
  askWireHook,
  type WireHookQuestion,
  wireHookSubscriptionSchema,
} from './wire-subscriptions.js';

const question: WireHookQuestion = {
  subscription_id: 'sub-1',
  event: 'PreToolUse',
  target: 'Shell',
  input_data: { tool_name: 'Shell' },
};

/** A client that never answers on its own, and reports when its request is withdrawn. */
function silentClient(): { ask: AskClient; withdrawn: Promise<unknown> } {
  let withdraw: (reason: unknown) => void = () => {};
  const withdrawn = new Promise((resolve) => {
    withdraw = resolve;
  });
  const ask: AskClient = (_question, signal) =>
    new Promise((_resolve, reject) => {
      signal.addEventListener('abort', () => {
        withdraw(signal.reason);
        reject(signal.reason);
      });
    });
  return { ask, withdrawn };
}

describe('wireHookSubscriptionSchema', () => {
  it('fills in matcher and timeout and checks the event', () => {
    expect(wireHookSubscriptionSchema.parse({ id: 'a', event: 'Stop' })).toEqual({
      id: 'a',
      event: 'Stop',
      matcher: '',
      timeout: 30,
    });
    expect(wireHookSubscriptionSchema.safeParse({ id: 'a', event: 'Whenever' }).success).toBe(false);
  });
});

describe('askWireHook', () => {
  it("returns the client's block with its reason, having sent the question as is", async () => {
    const seen: WireHookQuestion[] = [];
    const ask: AskClient = async (q) => {
      seen.push(q);
      return { action: 'block', reason: ' not on main ' };
    };
    const result = await askWireHook(ask, question, 5000, undefined);
    expect(result).toMatchObject({ action: 'block', reason: 'not on main', timedOut: false, error: null });
    expect(seen).toEqual([question]);
  });

  it('gives a block without reason a fallback reason', async () => {
    const result = await askWireHook(async () => ({ action: 'block' }), question, 5000, undefined);
    expect(result).toMatchObject({ action: 'block', reason: 'Blocked by PreToolUse hook' });
  });

  it('allows and withdraws the request when the client does not answer in time', async () => {
    const client = silentClient();
    const result = await askWireHook(client.ask, question, 50, undefined);
    expect(result).toMatchObject({ action: 'allow', reason: '', timedOut: true });
    await client.withdrawn;
  });

  it('allows and withdraws the request on abort', async () => {
    const client = silentClient();
    const controller = new AbortController();
    const pending = askWireHook(client.ask, question, 60_000, controller.signal);
    controller.abort();
    expect(await pending).toMatchObject({ action: 'allow', aborted: true, timedOut: false });
    await client.withdrawn;
  });

  it('allows when the request fails or throws', async () => {
    const failing = await askWireHook(
      async () => Promise.reject(new Error('client gone')),
      question,
      5000,
      undefined,
    );
    expect(failing).toMatchObject({ action: 'allow', error: 'client gone' });
    const throwing: AskClient = () => {
      throw new Error('not connected');
    };
    expect(await askWireHook(throwing, question, 5000, undefined)).toMatchObject({
      action: 'allow',
      error: 'not connected',
    });
  });

  it('allows when the answer is not {action, reason}', async () => {
    for (const answer of [null, 'block', { action: 'deny', reason: 'x' }, { reason: 'x' }]) {
      const result = await askWireHook(async () => answer, question, 5000, undefined);
      expect(result.action).toBe('allow');
      expect(result.error).not.toBeNull();
    }
  });
});
