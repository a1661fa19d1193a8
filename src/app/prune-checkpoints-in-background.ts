import type { Config } from '../config/schema.js';
import { pruneCheckpoints } from '../session/checkpoints/prune-checkpoints.js';
import type { FirstRequestGate } from './first-request-gate.js';
import { errorText, type WarningSink } from './session-warning.js';
import type { ShutdownList } from './shutdown-list.js';

/**
 * Prunes old checkpoints of closed sessions in the background, once `gate` opens (after the first
 * model request: off the start's path); closing the session stops a prune still running (git is
 * killed, the store stays consistent) or not yet begun.
 */
export function pruneInBackground(
  home: string,
  settings: Config['checkpoints'],
  gate: FirstRequestGate,
  shutdown: ShutdownList,
  warn: WarningSink,
): void {
  const stop = new AbortController();
  const running = gate.opened
    .then(() => {
      if (stop.signal.aborted) return;
      return pruneCheckpoints({
        home,
        maxAgeMs: settings.max_age_days * 86_400_000,
        maxTotalBytes: settings.max_total_mib * 1024 * 1024,
        signal: stop.signal,
      });
    })
    .catch((error: unknown) => {
      if (!stop.signal.aborted)
        warn({ kind: 'checkpoints-failed', message: `Pruning checkpoints failed: ${errorText(error)}` });
    });
  shutdown.add(async () => {
    stop.abort();
    gate.open();
    await running;
  });
}
