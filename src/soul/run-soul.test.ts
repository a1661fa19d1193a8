import { existsSync, readdirSync, readlinkSync, realpathSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { type Notification, streamedPartEvent, wireEvent } from '../wire/events.js';
import type { WireMessage } from '../wire/message.js';
import { type ApprovalAnswer, ApprovalRequest } from '../wire/requests.js';
import { readWireFile } from '../wire/wire-file.js';
import { RunCancelled } from './errors.js';
import { currentWire, runSoul, type UILoop, wireSend } from './run-soul.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kimi-ts-run-soul-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A UI loop that collects every merged message; `onMessage` may react to each. */
function collectingUI(out: WireMessage[], onMessage?: (message: WireMessage) => void, merge = true): UILoop {
  return async (wire) => {
    const subscription = wire.subscribe({ merge });
    for await (const message of subscription) {
      out.push(message);
      onMessage?.(message);
    }
  };
}

const nextTurn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

/** Live timers of this process (runSoul's pump and grace timers among them). */
function liveTimers(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
}

/** How many of this process's file descriptors are open on `path` (Linux: /proc/self/fd), checked synchronously. */
function openDescriptorsOn(path: string): number {
  const real = existsSync(path) ? realpathSync(path) : path;
  const target = (fd: string): string => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      return '';
    }
  };
  return readdirSync('/proc/self/fd').filter((fd) => target(fd) === real).length;
}

function notificationSource(count: number) {
  const queue: Notification[] = Array.from({ length: count }, (_, i) => ({
    id: `n${i}`,
    category: 'task',
    type: 'task.completed',
    source_kind: 'background_task',
    source_id: `bash-${i}`,
    title: `task ${i} done`,
    body: '',
    severity: 'success',
    created_at: 1,
    payload: {},
  }));
  const maxima: number[] = [];
  return {
    maxima,
    drainWire(max: number): Notification[] {
      maxima.push(max);
      return queue.splice(0, max);
    },
  };
}

describe('runSoul', () => {
  test('connects the soul to the UI through a current wire, records it, and cleans up', async () => {
    const seen: WireMessage[] = [];
    const file = join(dir, 'wire.jsonl');
    await runSoul(
      async () => {
        expect(currentWire()).not.toBeNull();
        wireSend(wireEvent('TurnBegin', { user_input: 'hi' }));
        await nextTurn();
        for (const piece of ['Hel', 'lo']) wireSend(streamedPartEvent({ type: 'text', text: piece }));
        wireSend(wireEvent('TurnEnd', {}));
      },
      collectingUI(seen),
      new AbortController().signal,
      { wireFile: file },
    );
    expect(seen).toEqual([
      { type: 'TurnBegin', payload: { user_input: 'hi' } },
      { type: 'ContentPart', payload: { type: 'text', text: 'Hello' } },
      { type: 'TurnEnd', payload: {} },
    ]);
    const recorded = await readWireFile(file);
    expect(recorded.records.map((r) => r.message)).toEqual(seen);
    expect(currentWire()).toBeNull();
  });

  test('wireSend with no current wire is a programming error with a clear message', () => {
    expect(() => wireSend(wireEvent('StepBegin', { n: 1 }))).toThrow(
      /wireSend\(StepBegin\) was called with no current wire/,
    );
  });

  test("the soul's error is rethrown after the wire was shut down and the UI finished", async () => {
    let uiFinished = false;
    const run = runSoul(
      async () => {
        wireSend(wireEvent('StepBegin', { n: 1 }));
        throw new Error('model exploded');
      },
      async (wire) => {
        for await (const _ of wire.subscribe({ merge: true })) {
          // drain
        }
        uiFinished = true;
      },
      new AbortController().signal,
    );
    await expect(run).rejects.toThrow('model exploded');
    expect(uiFinished).toBe(true);
  });

  test('cancel in the middle of a long soul: RunCancelled, recorder flushed, nothing left running', async () => {
    const file = join(dir, 'wire.jsonl');
    const cancel = new AbortController();
    const source = notificationSource(0);
    const timersBefore = liveTimers();
    let timersDuringRun = 0;
    let fileOpenDuringRun = 0;
    let sentText = '';
    let soulSawAbort = false;
    const raw: WireMessage[] = [];

    const run = runSoul(
      async (signal) => {
        wireSend(wireEvent('TurnBegin', { user_input: 'go' }));
        for (let i = 0; ; i++) {
          if (signal.aborted) {
            soulSawAbort = true;
            throw signal.reason;
          }
          const piece = `${i} `;
          sentText += piece;
          wireSend(streamedPartEvent({ type: 'text', text: piece }));
          await nextTurn();
        }
      },
      collectingUI(
        raw,
        () => {
          if (raw.length === 200) {
            timersDuringRun = liveTimers();
            fileOpenDuringRun = openDescriptorsOn(file);
            cancel.abort();
          }
        },
        false,
      ),
      cancel.signal,
      { wireFile: file, notifications: source },
    );

    const error = await run.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunCancelled);
    expect((error as RunCancelled).cause).toBeUndefined();
    expect(soulSawAbort).toBe(true);

    // Everything the soul sent before it stopped is on disk, merged.
    const recorded = await readWireFile(file);
    expect(recorded.problems).toEqual([]);
    expect(recorded.records.map((r) => r.message)).toEqual([
      { type: 'TurnBegin', payload: { user_input: 'go' } },
      { type: 'ContentPart', payload: { type: 'text', text: sentText } },
    ]);
    expect(raw.length).toBeGreaterThanOrEqual(200);

    // The pump's timer and the recorder's file were live during the run; afterwards neither is.
    // (Counts, not identities: a timer of an earlier test may expire meanwhile, so compare loosely.)
    expect(timersDuringRun).toBeGreaterThanOrEqual(1);
    expect(fileOpenDuringRun).toBe(1);
    expect(liveTimers()).toBeLessThanOrEqual(timersBefore);
    expect(openDescriptorsOn(file)).toBe(0);
    expect(source.maxima.every((max) => max === 8)).toBe(true);
  });

  test('cancelling the run releases every pending request', async () => {
    const cancel = new AbortController();
    const answers: ApprovalAnswer[] = [];
    const run = runSoul(
      async (signal) => {
        const requests = ['r1', 'r2'].map(
          (id) =>
            new ApprovalRequest({
              id,
              tool_call_id: id,
              sender: 'Shell',
              action: 'run',
              description: 'ls',
              display: [],
            }),
        );
        for (const request of requests) wireSend(request);
        // Waiting without the signal: only the run's cancellation can release these.
        answers.push(...(await Promise.all(requests.map((request) => request.wait()))));
        signal.throwIfAborted();
      },
      collectingUI([], (message) => {
        if (message instanceof ApprovalRequest && message.id === 'r2') cancel.abort();
      }),
      cancel.signal,
    );
    await expect(run).rejects.toBeInstanceOf(RunCancelled);
    expect(answers).toEqual([
      { response: 'reject', feedback: '' },
      { response: 'reject', feedback: '' },
    ]);
  });

  test('notifications are pumped, 8 at a time, and flushed once at shutdown', async () => {
    const source = notificationSource(11);
    const seen: WireMessage[] = [];
    let eightSeen!: () => void;
    const gotEight = new Promise<void>((resolve) => {
      eightSeen = resolve;
    });
    await runSoul(
      () => gotEight,
      collectingUI(seen, () => {
        if (seen.length === 8) eightSeen();
      }),
      new AbortController().signal,
      { notifications: source },
    );
    const ids = seen.map((m) => (m.type === 'Notification' ? m.payload.id : m.type));
    expect(ids.slice(0, 8)).toEqual(['n0', 'n1', 'n2', 'n3', 'n4', 'n5', 'n6', 'n7']);
    expect(ids.slice(8)).toEqual(['n8', 'n9', 'n10']); // the shutdown flush
    expect(source.maxima).toEqual([8, 8]);
  });

  test('a run cancelled before it starts never calls the soul', async () => {
    let called = false;
    const seen: WireMessage[] = [];
    await expect(
      runSoul(
        async () => {
          called = true;
        },
        collectingUI(seen),
        AbortSignal.abort(),
      ),
    ).rejects.toBeInstanceOf(RunCancelled);
    expect(called).toBe(false);
    expect(seen).toEqual([]);
  });

  test('a UI loop that does not finish is aborted after the grace period', async () => {
    let uiSignal: AbortSignal | undefined;
    await runSoul(
      async () => {
        wireSend(wireEvent('TurnEnd', {}));
      },
      (_wire, signal) => {
        uiSignal = signal;
        return new Promise<void>((resolve) =>
          signal.addEventListener('abort', () => resolve(), { once: true }),
        );
      },
      new AbortController().signal,
    );
    expect(uiSignal?.aborted).toBe(true);
  });

  test("a failing UI loop's error surfaces when the soul succeeded", async () => {
    await expect(
      runSoul(
        async () => {},
        async () => {
          throw new Error('terminal gone');
        },
        new AbortController().signal,
      ),
    ).rejects.toThrow('terminal gone');
  });
});
