/** What a WaitFor is about to wait for: these tasks (any of them), at most `timeoutMs`. */
export interface WaitRequest {
  taskIds: readonly string[];
  timeoutMs: number;
}

/**
 * Where a fleet worker takes over a WaitFor that would block its turn: `'parked'` when the turn is
 * stopped instead (its job parked, holding no worker, and the step redone when a task ends or the
 * wait's time is up), or how long this WaitFor waits here (a redone one: what is left of its time).
 */
export type WaitParker = (wait: WaitRequest) => 'parked' | number;
