import { describe, expect, test } from 'vitest';
import { streamedPartEvent, wireEvent } from './events.js';
import type { WireMessage } from './message.js';
import type { WireRedaction } from './redaction.js';
import type { WireSubscription } from './subscription.js';
import { Wire } from './wire.js';

const KEY = 'sk-wire-secret-123456';

async function collect(subscription: WireSubscription): Promise<WireMessage[]> {
  const out: WireMessage[] = [];
  for await (const message of subscription) out.push(message);
  return out;
}

describe('Wire redaction', () => {
  test('a secret never reaches a subscriber, even split across streamed fragments', async () => {
    const redact = (text: string) => text.split(KEY).join('[redacted]');
    const secrets: WireRedaction = {
      redact,
      redactDeep: <T>(value: T): T => JSON.parse(redact(JSON.stringify(value))) as T,
    };
    const wire = new Wire({ redaction: secrets });
    const raw = collect(wire.subscribe({ merge: false }));
    const merged = collect(wire.subscribe({ merge: true }));
    wire.send(wireEvent('TurnBegin', { user_input: `use ${KEY}` }));
    wire.send(streamedPartEvent({ type: 'text', text: `a ${KEY.slice(0, 8)}` }));
    wire.send(streamedPartEvent({ type: 'text', text: `${KEY.slice(8)} b` }));
    wire.send(wireEvent('TurnEnd', {}));
    wire.shutdown();
    const rawText = JSON.stringify(await raw);
    const mergedText = JSON.stringify(await merged);
    expect(rawText).toContain('use [redacted]');
    expect(mergedText).not.toContain(KEY);
    expect(mergedText).toContain('a [redacted] b');
  });
});
