import { describe, expect, test } from 'vitest';
import type { ToolCall } from '../kosong/message.js';
import { streamedPartEvent, type WireEvent, wireEvent } from './events.js';
import type { WireMessage } from './message.js';
import { ApprovalRequest } from './requests.js';
import type { WireSubscription } from './subscription.js';
import { Wire } from './wire.js';

const text = (t: string): WireEvent => streamedPartEvent({ type: 'text', text: t });
const think = (t: string, encrypted?: string): WireEvent =>
  streamedPartEvent(encrypted ? { type: 'think', think: t, encrypted } : { type: 'think', think: t });
const call = (id: string, args: string | null = null): WireEvent =>
  streamedPartEvent({ type: 'function', id, function: { name: 'Shell', arguments: args } });
const argsPart = (part: string): WireEvent =>
  streamedPartEvent({ type: 'tool_call_part', arguments_part: part });

async function collect(subscription: WireSubscription): Promise<WireMessage[]> {
  const out: WireMessage[] = [];
  for await (const message of subscription) out.push(message);
  return out;
}

describe('Wire', () => {
  test('a raw and a merged subscriber see the same events in the same order', async () => {
    const wire = new Wire();
    const raw = collect(wire.subscribe({ merge: false }));
    const merged = collect(wire.subscribe({ merge: true }));
    wire.send(wireEvent('TurnBegin', { user_input: 'hi' }));
    wire.send(wireEvent('StepBegin', { n: 1 }));
    wire.send(think('a'));
    wire.send(think('b'));
    wire.send(text('Hel'));
    wire.send(text('lo'));
    wire.send(call('c1', '{"a"'));
    wire.send(argsPart(':1}'));
    wire.send(wireEvent('StatusUpdate', { message_id: 'm1' }));
    wire.send(wireEvent('TurnEnd', {}));
    wire.shutdown();

    const rawTypes = (await raw).map((m) => m.type);
    expect(rawTypes).toEqual([
      'TurnBegin',
      'StepBegin',
      'ContentPart',
      'ContentPart',
      'ContentPart',
      'ContentPart',
      'ToolCall',
      'ToolCallPart',
      'StatusUpdate',
      'TurnEnd',
    ]);
    const mergedMessages = await merged;
    expect(mergedMessages.map((m) => m.type)).toEqual([
      'TurnBegin',
      'StepBegin',
      'ContentPart',
      'ContentPart',
      'ToolCall',
      'StatusUpdate',
      'TurnEnd',
    ]);
    expect(mergedMessages.slice(2, 5).map((m) => m.payload)).toEqual([
      { type: 'think', think: 'ab' },
      { type: 'text', text: 'Hello' },
      { type: 'function', id: 'c1', function: { name: 'Shell', arguments: '{"a":1}' } },
    ]);
  });

  test('10,000 text fragments arrive as 10,000 raw messages and one merged message', async () => {
    const wire = new Wire();
    const raw = wire.subscribe({ merge: false });
    const merged = wire.subscribe({ merge: true });
    const sent: WireEvent[] = [];
    for (let i = 0; i < 10_000; i++) {
      const fragment = text(`${i % 10}`);
      sent.push(fragment);
      wire.send(fragment);
    }
    expect(merged.size).toBe(0); // still merging: nothing complete yet
    wire.shutdown();

    const rawMessages = await collect(raw);
    expect(rawMessages).toHaveLength(10_000);
    expect(rawMessages.every((message, i) => message === sent[i])).toBe(true);
    expect(sent[0]!.payload).toEqual({ type: 'text', text: '0' }); // merging did not touch what was sent

    const mergedMessages = await collect(merged);
    expect(mergedMessages).toHaveLength(1);
    expect(mergedMessages[0]).toEqual({
      type: 'ContentPart',
      payload: { type: 'text', text: '0123456789'.repeat(1000) },
    });
  });

  test('a tool call and its argument fragments merge into one complete call', async () => {
    const wire = new Wire();
    const merged = wire.subscribe({ merge: true });
    const raw = wire.subscribe({ merge: false });
    wire.send(call('call_1'));
    for (const piece of ['{"com', 'mand"', ': "ls', ' -la"}']) wire.send(argsPart(piece));
    wire.send(call('call_2', '{}'));
    wire.flush();

    const [first, second] = merged.takeAll();
    expect(first).toEqual({
      type: 'ToolCall',
      payload: {
        type: 'function',
        id: 'call_1',
        function: { name: 'Shell', arguments: '{"command": "ls -la"}' },
      },
    });
    expect((second!.payload as ToolCall).id).toBe('call_2');
    expect(raw.takeAll().map((m) => m.type)).toEqual([
      'ToolCall',
      'ToolCallPart',
      'ToolCallPart',
      'ToolCallPart',
      'ToolCallPart',
      'ToolCall',
    ]);
  });

  test('a signed think part is sealed; a non-mergeable message flushes the buffer first', () => {
    const wire = new Wire();
    const merged = wire.subscribe({ merge: true });
    wire.send(think('x'));
    wire.send(think('y', 'sig'));
    wire.send(think('z'));
    expect(merged.takeAll().map((m) => m.payload)).toEqual([
      { type: 'think', think: 'xy', encrypted: 'sig' },
    ]);
    wire.send(wireEvent('StepInterrupted', {}));
    expect(merged.takeAll()).toEqual([
      { type: 'ContentPart', payload: { type: 'think', think: 'z' } },
      { type: 'StepInterrupted', payload: {} },
    ]);
  });

  test('flush delivers the fragment being merged at once', () => {
    const wire = new Wire();
    const merged = wire.subscribe({ merge: true });
    wire.send(text('partial'));
    expect(merged.size).toBe(0);
    wire.flush();
    expect(merged.takeAll()).toEqual([text('partial')]);
    wire.flush();
    expect(merged.size).toBe(0);
  });

  test('shutdown delivers everything already sent, then ends every subscriber', async () => {
    const wire = new Wire();
    const raw = wire.subscribe({ merge: false });
    const merged = wire.subscribe({ merge: true });
    const reading = collect(merged);
    wire.send(text('a'));
    wire.send(text('b'));
    wire.shutdown();
    wire.send(text('dropped'));
    expect(await reading).toEqual([text('ab')]);
    expect(await collect(raw)).toEqual([text('a'), text('b')]);
    const late = wire.subscribe({ merge: false });
    expect(await late.receive()).toBeNull();
    await wire.join();
  });

  test('a request sent after shutdown is cancelled at once', async () => {
    const wire = new Wire();
    wire.shutdown();
    const request = new ApprovalRequest({
      id: 'r1',
      tool_call_id: 't1',
      sender: 'Shell',
      action: 'run',
      description: 'ls',
      display: [],
    });
    wire.send(request);
    expect(await request.wait()).toEqual({ response: 'reject', feedback: '' });
  });

  test('a slow subscriber blocks neither the producer nor other subscribers, and closing it frees its queue', async () => {
    const wire = new Wire();
    const slow = wire.subscribe({ merge: false });
    const fast = wire.subscribe({ merge: false });
    let seen = 0;
    const reading = (async () => {
      for await (const batch of fast.batches()) seen += batch.length;
    })();
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 1000; i++) wire.send(wireEvent('StepBegin', { n: i }));
      await fast.waitForMessages();
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    expect(seen).toBe(5000);
    expect(fast.size).toBe(0);
    expect(slow.size).toBe(5000);
    slow.close();
    expect(slow.size).toBe(0);
    wire.send(wireEvent('TurnEnd', {}));
    expect(slow.size).toBe(0);
    wire.shutdown();
    await reading;
    expect(seen).toBe(5001);
  });

  test('a subscriber that reads one at a time gets messages in order across wake-ups', async () => {
    const wire = new Wire();
    const sub = wire.subscribe({ merge: false });
    const got: number[] = [];
    const reading = (async () => {
      for (;;) {
        const message = await sub.receive();
        if (message === null) return;
        if (message.type === 'StepBegin') got.push(message.payload.n);
      }
    })();
    for (let i = 0; i < 3000; i++) {
      wire.send(wireEvent('StepBegin', { n: i }));
      if (i % 700 === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    }
    wire.shutdown();
    await reading;
    expect(got).toEqual(Array.from({ length: 3000 }, (_, i) => i));
  });

  test('leaving a for-await loop early unsubscribes', async () => {
    const wire = new Wire();
    const sub = wire.subscribe({ merge: false });
    wire.send(wireEvent('StepBegin', { n: 1 }));
    wire.send(wireEvent('StepBegin', { n: 2 }));
    for await (const _ of sub) break;
    wire.send(wireEvent('StepBegin', { n: 3 }));
    expect(sub.size).toBe(0);
    expect(sub.isDone).toBe(true);
  });

  test('waitForMessages rejects when its signal aborts', async () => {
    const wire = new Wire();
    const sub = wire.subscribe({ merge: true });
    const controller = new AbortController();
    const waiting = sub.waitForMessages(controller.signal);
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    wire.send(wireEvent('TurnEnd', {}));
    expect(await sub.waitForMessages()).toBe(true);
  });
});
