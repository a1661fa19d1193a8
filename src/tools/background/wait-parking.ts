/** What a WaitFor is about to wait for: these tasks (any of them), at most `timeoutMs`. */
export interface WaitRequest {
  /** The waited tasks still running (none: there is nothing to park for). */
  taskIds: readonly string[];
  timeoutMs: number;
  /** When the wait began (ms since the epoch). */
  startedAt: number;
}

/** How a WaitFor waits here: at most `waitMs` more, its wait counted from `startedAt`. */
export interface WaitHere {
  waitMs: number;
  startedAt: number;
}

/**
 * Where a fleet worker takes over a WaitFor that would block its turn: `'parked'` when the turn is
 * stopped instead (its job parked, holding no worker, and the step redone when a task ends or the
 * wait's time is up), or how this WaitFor waits here (a redone one: what is left of the parked
 * wait, counted from when that began).
 */
export type WaitParker = (wait: WaitRequest) => 'parked' | WaitHere;
