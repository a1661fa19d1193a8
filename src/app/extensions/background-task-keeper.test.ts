import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotificationOutbox } from '../../session/notification-outbox.js';
import type { BackgroundTaskManager } from '../../tools/background/background-task-manager.js';
import { makeTempDir, openManager, removeDir } from '../../tools/background/test-support/task-harness.js';
import type { WaitRequest } from '../../tools/background/wait-parking.js';
import { commandEnvironment, findBash } from '../../tools/shell/shell-environment.js';
import { BackgroundTaskKeeper } from './background-task-keeper.js';

const bash = findBash(process.env, []) as string;
let dir: string;
let manager: BackgroundTaskManager;
let outbox: NotificationOutbox;

beforeEach(async () => {
  dir = await makeTempDir('kimi-ts-keeper-');
  manager = await openManager(join(dir, 'session'));
  outbox = await NotificationOutbox.open(join(dir, 'session', 'notifications'));
});
afterEach(async () => {
  await manager.shutdown();
  await removeDir(dir);
});

const startBash = (command: string) =>
  manager.startBash({
    command,
    description: command,
    timeoutS: null,
    cwd: dir,
    env: commandEnvironment(process.env, bash, []),
    shellPath: bash,
  });

describe('BackgroundTaskKeeper', () => {
  it('parks only a running turn of this process, and keeps its tasks at the close for the next open', async () => {
    const keeper = new BackgroundTaskKeeper();
    const task = await startBash('sleep 30');
    const wait: WaitRequest = { taskIds: [task.spec.id], timeoutMs: 60_000, startedAt: Date.now() };
    // No turn of the session runs here: the wait is had in place.
    expect(keeper.offer('s1', manager, wait)).toEqual({ waitMs: 60_000, startedAt: wait.startedAt });
    const parks: WaitRequest[] = [];
    const done = keeper.watchTurn('s1', (parked) => parks.push(parked));
    // Tasks that have all ended: nothing to park for.
    expect(keeper.offer('s1', manager, { ...wait, taskIds: [] })).toEqual({
      waitMs: 60_000,
      startedAt: wait.startedAt,
    });
    expect(parks).toEqual([]);
    expect(keeper.offer('s1', manager, wait)).toBe('parked');
    expect(parks).toEqual([wait]);
    done();
    expect(keeper.holds('s1')).toBe(false);
    expect(keeper.keep('s1', { manager, outbox })).toBe(true);
    expect(keeper.keep('other', { manager, outbox })).toBe(false);
    expect(keeper.holds('s1')).toBe(true);
    expect(keeper.sessions()).toEqual(['s1']);
    expect(manager.get(task.spec.id)?.runtime.status).toBe('running');
    // The next open takes the tasks back; its redone WaitFor waits only what is left.
    expect(keeper.take('s1')?.manager).toBe(manager);
    expect(keeper.take('s1')).toBeUndefined();
    const redone = keeper.offer('s1', manager, { ...wait, startedAt: Date.now() + 1 });
    expect(redone).toEqual({ waitMs: expect.any(Number), startedAt: wait.startedAt });
    const left = (redone as { waitMs: number }).waitMs;
    expect(left > 0 && left <= 60_000).toBe(true);
    // Taken back again, and this time the redone step calls no WaitFor: a later turn's is its own.
    keeper.watchTurn('s1', () => {});
    expect(keeper.offer('s1', manager, wait)).toBe('parked');
    keeper.keep('s1', { manager, outbox });
    keeper.take('s1');
    keeper.watchTurn('s1', () => {})();
    const later = { ...wait, startedAt: Date.now() + 5 };
    expect(keeper.offer('s1', manager, later)).toEqual({ waitMs: 60_000, startedAt: later.startedAt });
  });

  it('does not park while a background agent runs: it needs its session open', async () => {
    const keeper = new BackgroundTaskKeeper();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const agent = await manager.startAgent({ description: 'agent', run: () => gate });
    keeper.watchTurn('s1', () => {
      throw new Error('must not park');
    });
    const wait = { taskIds: [agent.spec.id], timeoutMs: 1000, startedAt: Date.now() };
    expect(keeper.offer('s1', manager, wait)).toEqual({ waitMs: 1000, startedAt: wait.startedAt });
    release();
  });

  it('is due when a waited task ends, or when the wait is over; release stops the kept tasks', async () => {
    const keeper = new BackgroundTaskKeeper();
    keeper.watchTurn('s1', () => {});
    const quick = await startBash('read line; echo $line');
    expect(
      keeper.offer('s1', manager, { taskIds: [quick.spec.id], timeoutMs: 60_000, startedAt: Date.now() }),
    ).toBe('parked');
    keeper.keep('s1', { manager, outbox });
    const due = keeper.due('s1', new AbortController().signal);
    await manager.stop(quick.spec.id, 'ended by the test');
    expect(await due).toBe('task');
    keeper.take('s1');

    const keeper2 = new BackgroundTaskKeeper();
    keeper2.watchTurn('s2', () => {});
    const slow = await startBash('sleep 30');
    expect(
      keeper2.offer('s2', manager, { taskIds: [slow.spec.id], timeoutMs: 1, startedAt: Date.now() }),
    ).toBe('parked');
    keeper2.keep('s2', { manager, outbox });
    expect(await keeper2.due('s2', new AbortController().signal)).toBe('timeout');
    await keeper2.release('s2', 'released by the test');
    expect(manager.get(slow.spec.id)?.runtime.status).toBe('killed');
    expect(keeper2.holds('s2')).toBe(false);
  });
});
