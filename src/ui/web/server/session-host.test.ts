import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { wireSend } from '../../../soul/run-soul.js';
import { streamedPartEvent, wireEvent } from '../../../wire/events.js';
import { ApprovalRequest } from '../../../wire/requests.js';
import { ScriptedSession } from '../../common/test-support/scripted-turn-session.js';
import { SessionHost } from './session-host.js';

interface Frame {
  id?: string;
  method?: string;
  params?: { type: string; payload: Record<string, unknown> };
  result?: unknown;
  error?: { code: number; message: string };
}

/** A client of the host that records every frame it gets. */
function clientOf(host: SessionHost) {
  const frames: Frame[] = [];
  const waiters: { match: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];
  const attached = host.attach({
    send: (text) => {
      const frame = JSON.parse(text) as Frame;
      frames.push(frame);
      for (const w of [...waiters])
        if (w.match(frame)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(frame);
        }
    },
  });
  const waitFor = (match: (f: Frame) => boolean): Promise<Frame> => {
    const seen = frames.find(match);
    return seen ? Promise.resolve(seen) : new Promise((resolve) => waiters.push({ match, resolve }));
  };
  return {
    frames,
    waitFor,
    send: (message: object) => attached.receive(JSON.stringify({ jsonrpc: '2.0', ...message })),
    request: (id: string, method: string, params: unknown = {}) => {
      const answer = waitFor((f) => f.id === id && f.method === undefined);
      attached.receive(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
      return answer;
    },
    stream: () => frames.filter((f) => f.method !== undefined).map((f) => JSON.stringify(f)),
    detach: attached.detach,
  };
}

let dir: string;
let session: ScriptedSession;
let host: SessionHost;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kimi-ts-session-host-'));
  session = new ScriptedSession(dir, join(dir, 'wire.jsonl'));
  host = await SessionHost.open(session, () => {});
});
afterEach(async () => {
  await host.shutdown();
  await rm(dir, { recursive: true, force: true });
});

describe('SessionHost', () => {
  test("each client's ids are its own; a later initialize gets the first one's answer", async () => {
    const a = clientOf(host);
    const b = clientOf(host);
    const [first, second] = await Promise.all([
      a.request('1', 'initialize', { protocol_version: '1.10' }),
      b.request('1', 'initialize', { protocol_version: '1.10' }),
    ]);
    expect(first.result).toMatchObject({ protocol_version: '1.10' });
    expect(second.result).toEqual(first.result);
    expect(a.frames.filter((f) => f.id === '1')).toHaveLength(1);
    expect(b.frames.filter((f) => f.id === '1')).toHaveLength(1);
    // Same id from both, different answers: each gets only its own.
    const [cancelA, planB] = await Promise.all([
      a.request('2', 'cancel'),
      b.request('2', 'set_plan_mode', { enabled: true }),
    ]);
    expect(cancelA.error?.code).toBe(-32000);
    expect(planB.result).toEqual({ status: 'ok', plan_mode: true });
    // Invalid input is answered to its sender only.
    a.send({ id: 3, method: 'prompt' });
    await a.waitFor((f) => f.id === (3 as unknown as string));
    expect(b.frames.some((f) => f.id === (3 as unknown as string))).toBe(false);
  });

  test('an approval answered by one client settles once; a replay mid-turn equals what a client attached all along saw', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    session.script = async (turn) => {
      wireSend(wireEvent('TurnBegin', { user_input: turn.input }));
      wireSend(streamedPartEvent({ type: 'text', text: 'Hel' }));
      const request = new ApprovalRequest({
        id: 'ap-1',
        tool_call_id: 'call-1',
        sender: 'Shell',
        action: 'run command',
        description: 'Run `ls`',
        display: [],
      });
      wireSend(request);
      const answer = await request.wait(turn.signal);
      wireSend(streamedPartEvent({ type: 'text', text: `lo ${answer.response}` }));
      await gate;
      wireSend(streamedPartEvent({ type: 'text', text: '!' }));
      wireSend(wireEvent('TurnEnd', {}));
    };
    const driver = clientOf(host);
    const prompt = driver.request('p', 'prompt', { user_input: 'hi' });
    const approval = await driver.waitFor((f) => f.method === 'request');
    const late = clientOf(host);
    late.send({ id: approval.id, result: { request_id: 'ap-1', response: 'approve' } });
    driver.send({ id: approval.id, result: { request_id: 'ap-1', response: 'reject' } });
    await driver.waitFor((f) => JSON.stringify(f).includes('lo approve'));
    const replay = late.request('r', 'replay');
    release();
    expect((await prompt).result).toEqual({ status: 'finished' });
    expect((await replay).result).toMatchObject({ status: 'finished' });
    await late.waitFor((f) => f.params?.type === 'TurnEnd');
    // The late client's frames from its replay on: the driver's, same order, none twice.
    const fromReplay = late.stream().slice(late.stream().indexOf(driver.stream()[0]!));
    expect(fromReplay).toEqual(driver.stream());
    expect(JSON.stringify(driver.frames)).not.toContain('lo reject');
  });

  test('a client leaving never cancels the turn; the host reports idle once nobody is left and no turn runs', async () => {
    let idle = 0;
    let onIdle: () => void = () => {};
    const becameIdle = new Promise<void>((resolve) => {
      onIdle = resolve;
    });
    await host.shutdown();
    host = await SessionHost.open(session, () => {
      idle++;
      onIdle();
    });
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let finished = false;
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    session.script = async () => {
      started();
      await gate;
      finished = true;
    };
    const tab = clientOf(host);
    void tab.request('p', 'prompt', { user_input: 'x' });
    await running;
    tab.detach();
    expect(idle).toBe(0); // a turn runs
    release();
    await becameIdle;
    expect(finished).toBe(true);
    expect(host.isIdle).toBe(true);
  });
  test('a session longer than the replay memory cap: memory stays bounded, a replay mid-turn and after still misses nothing and repeats nothing', async () => {
    await host.shutdown();
    const CAP = 2_000;
    host = await SessionHost.open(session, () => {}, { replayMemoryBytes: CAP });
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let halfway: () => void = () => {};
    const reachedHalf = new Promise<void>((resolve) => {
      halfway = resolve;
    });
    session.script = async (turn) => {
      wireSend(wireEvent('TurnBegin', { user_input: turn.input }));
      for (let i = 0; i < 400; i++) {
        wireSend(streamedPartEvent({ type: 'text', text: `part-${i} ` }));
        if (i === 200) {
          halfway();
          await gate;
        }
        // Let the spill writes interleave with the stream.
        if (i % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      wireSend(wireEvent('TurnEnd', {}));
    };
    const driver = clientOf(host);
    const prompt = driver.request('p', 'prompt', { user_input: 'long' });
    await reachedHalf;
    await driver.waitFor((f) => JSON.stringify(f).includes('part-200 '));
    // Far more than the cap went by; memory holds at most the cap (plus the frame over the line).
    expect(driver.stream().join('').length).toBeGreaterThan(CAP * 5);
    await host.replaySpillsSettled();
    expect(host.replayMemoryUsed).toBeLessThanOrEqual(CAP + 200);
    const late = clientOf(host);
    const replay = late.request('r', 'replay');
    release();
    expect((await prompt).result).toEqual({ status: 'finished' });
    expect((await replay).result).toMatchObject({ status: 'finished' });
    await late.waitFor((f) => f.params?.type === 'TurnEnd');
    expect(late.stream()).toEqual(driver.stream());
    // After the turn, a new client's replay is the same again, once.
    const after = clientOf(host);
    await after.request('r2', 'replay');
    expect(after.stream()).toEqual(driver.stream());
    expect(host.replayMemoryUsed).toBeLessThanOrEqual(CAP + 200);
  });
});
