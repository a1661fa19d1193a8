import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { wireSend } from '../../soul/run-soul.js';
import { streamedPartEvent, wireEvent } from '../../wire/events.js';
import { ApprovalRequest } from '../../wire/requests.js';
import { appendWireMessages } from '../../wire/wire-file.js';
import { ScriptedSession } from '../common/test-support/scripted-turn-session.js';
import { TestWireClient } from './test-support/in-memory-wire-client.js';

let dir: string;
let session: ScriptedSession;
let client: TestWireClient;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kimi-ts-wire-replay-'));
  session = new ScriptedSession(dir, join(dir, 'wire.jsonl'));
  client = new TestWireClient(session);
});
afterEach(async () => {
  await client.close();
  expect(client.badLines).toEqual([]);
  await rm(dir, { recursive: true, force: true });
});

describe('replay', () => {
  test('with no history it finishes with zero counts', async () => {
    expect((await client.request('replay')).result).toEqual({ status: 'finished', events: 0, requests: 0 });
    expect((await client.request('replay', {})).result).toEqual({
      status: 'finished',
      events: 0,
      requests: 0,
    });
  });

  test('re-sends what the recorder wrote as events: merged fragments, past requests as history', async () => {
    session.script = async (turn) => {
      wireSend(wireEvent('TurnBegin', { user_input: turn.input }));
      wireSend(streamedPartEvent({ type: 'text', text: 'Hel' }));
      wireSend(streamedPartEvent({ type: 'text', text: 'lo' }));
      const request = new ApprovalRequest({
        id: 'ap-1',
        tool_call_id: 'call-1',
        sender: 'Shell',
        action: 'run command',
        description: 'Run `ls`',
        display: [],
      });
      wireSend(request);
      await request.wait(turn.signal);
      wireSend(wireEvent('TurnEnd', {}));
    };
    const prompt = client.request('prompt', { user_input: 'hi' });
    await client.waitForRequest('ApprovalRequest');
    client.respond('ap-1', { request_id: 'ap-1', response: 'approve' });
    expect((await prompt).result).toEqual({ status: 'finished' });

    const liveCount = client.messages.length;
    const replay = await client.request('replay');
    // As Kimi CLI: a past approval request is replayed as an event, never as a live request.
    expect(replay.result).toEqual({ status: 'finished', events: 4, requests: 0 });
    const replayed = client.messages.slice(liveCount, -1);
    expect(replayed.map((m) => [m.method, (m.params as { type: string }).type])).toEqual([
      ['event', 'TurnBegin'],
      ['event', 'ContentPart'],
      ['event', 'ApprovalRequest'],
      ['event', 'TurnEnd'],
    ]);
    expect(replayed[1]!.params).toEqual({ type: 'ContentPart', payload: { type: 'text', text: 'Hello' } });
    expect(replayed[2]!.id).toBeUndefined();
    expect((replayed[2]!.params as { payload: { id: string } }).payload.id).toBe('ap-1');

    expect((await client.request('cancel')).error).toMatchObject({ code: -32000 });
  });

  test('cancel stops a long replay, which reports what it sent', async () => {
    const total = 20_000;
    await appendWireMessages(
      session.wireFile,
      Array.from({ length: total }, (_, n) => wireEvent('StepBegin', { n })),
    );
    const replay = client.request('replay');
    await client.waitForEvent('StepBegin');
    expect((await client.request('cancel')).result).toEqual({});
    const result = (await replay).result as { status: string; events: number; requests: number };
    expect(result.status).toBe('cancelled');
    expect(result.events).toBeGreaterThan(0);
    expect(result.events).toBeLessThan(total);
    expect(client.messages.filter((m) => m.method === 'event')).toHaveLength(result.events);
  });
});
