import type { NotificationOutbox } from '../../session/notification-outbox.js';
import type { BackgroundTaskManager } from '../../tools/background/background-task-manager.js';
import type { WaitHere, WaitRequest } from '../../tools/background/wait-parking.js';

/** A session's background tasks kept alive in this process while its turn is parked. */
export interface KeptTasks {
  manager: BackgroundTaskManager;
  outbox: NotificationOutbox;
}

interface ParkedWait {
  wait: WaitRequest;
  deadline: number;
  kept: KeptTasks | null;
}

/**
 * A fleet worker's background tasks of parked turns: a WaitFor that would block its turn parks it
 * instead (the job holds no worker), and the session's closing keeps its task manager here, tasks
 * running, instead of stopping them; the next open of the session in this process takes it back.
 * Only bash tasks are kept: an in-process background agent needs its session open, so a turn with
 * one running waits in its worker as before.
 */
export class BackgroundTaskKeeper {
  /** Sessions whose turn runs here now, with how each is stopped to park. */
  private readonly running = new Map<string, (wait: WaitRequest) => void>();
  private readonly parked = new Map<string, ParkedWait>();
  /** The parked wait of a session taken back: its redone WaitFor waits only what is left of it. */
  private readonly resumed = new Map<string, ParkedWait>();

  /** While the session's turn runs here, a WaitFor that would block calls `park` (and is stopped). */
  watchTurn(sessionId: string, park: (wait: WaitRequest) => void): () => void {
    this.running.set(sessionId, park);
    return () => {
      if (this.running.get(sessionId) !== park) return;
      this.running.delete(sessionId);
      // A redone step that called no WaitFor: the old wait's remainder is not a later turn's.
      this.resumed.delete(sessionId);
    };
  }

  /** The WaitFor of a running turn: parked, or how long it waits here. */
  offer(sessionId: string, manager: BackgroundTaskManager, wait: WaitRequest): 'parked' | WaitHere {
    const resumed = this.resumed.get(sessionId);
    if (resumed !== undefined) {
      // The redone step's WaitFor: the wait was already had, parked; only what is left of it.
      this.resumed.delete(sessionId);
      const waitMs = Math.max(0, Math.min(wait.timeoutMs, resumed.deadline - Date.now()));
      return { waitMs, startedAt: resumed.wait.startedAt };
    }
    const park = this.running.get(sessionId);
    const agentRunning = manager.list({ activeOnly: true }).some((view) => view.spec.kind !== 'bash');
    const nothingToWaitFor = wait.taskIds.length === 0;
    if (park === undefined || nothingToWaitFor || agentRunning || this.parked.has(sessionId))
      return { waitMs: wait.timeoutMs, startedAt: wait.startedAt };
    this.parked.set(sessionId, { wait, deadline: wait.startedAt + wait.timeoutMs, kept: null });
    park(wait);
    return 'parked';
  }

  /** At the session's close: true when its tasks are kept here (its turn parked for a wait). */
  keep(sessionId: string, kept: KeptTasks): boolean {
    const parked = this.parked.get(sessionId);
    if (parked === undefined) return false;
    parked.kept = kept;
    return true;
  }

  /** At the session's open: its kept tasks, taken back (once). */
  take(sessionId: string): KeptTasks | undefined {
    const parked = this.parked.get(sessionId);
    if (!parked?.kept) return undefined;
    this.parked.delete(sessionId);
    this.resumed.set(sessionId, parked);
    return parked.kept;
  }

  /** Whether this process keeps the session's tasks for a parked turn. */
  holds(sessionId: string): boolean {
    return Boolean(this.parked.get(sessionId)?.kept);
  }

  /** Sessions whose tasks are kept here. */
  sessions(): string[] {
    return [...this.parked.keys()].filter((id) => this.holds(id));
  }

  /**
   * Resolves when the parked wait of the session is due: one of its tasks has ended, or its time is
   * up (or `signal` aborts). Immediately when nothing is kept for it.
   */
  async due(sessionId: string, signal: AbortSignal): Promise<'task' | 'timeout'> {
    const parked = this.parked.get(sessionId);
    if (!parked?.kept) return 'timeout';
    const { manager } = parked.kept;
    const left = Math.max(0, parked.deadline - Date.now());
    const ids = parked.wait.taskIds.filter((id) => manager.get(id) !== undefined);
    if (ids.length === 0) return 'task';
    const own = new AbortController();
    const stop = () => own.abort(signal.reason);
    signal.addEventListener('abort', stop, { once: true });
    try {
      const stillRunning = await Promise.race(
        ids.map((id) => manager.wait(id, left, own.signal).then(() => manager.unsettledIds().includes(id))),
      );
      return stillRunning ? 'timeout' : 'task';
    } finally {
      signal.removeEventListener('abort', stop);
      own.abort();
    }
  }

  /** Stops the kept tasks of the session (the turn will not come back here) and forgets them. */
  async release(sessionId: string, reason: string): Promise<void> {
    const parked = this.parked.get(sessionId);
    this.parked.delete(sessionId);
    this.resumed.delete(sessionId);
    if (parked?.kept) await parked.kept.manager.shutdown(reason);
  }
}
