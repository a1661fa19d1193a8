import { setTimeout as delay } from 'node:timers/promises';
import { isAbortError } from '../kosong/errors.js';
import type { WriteFence } from '../util/write-fence.js';
import { runWithWire } from '../wire/current-wire.js';
import type { Notification } from '../wire/events.js';
import type { WireRedaction } from '../wire/redaction.js';
import { Wire } from '../wire/wire.js';
import { RunCancelled } from './errors.js';

export { currentWire, wireSend } from '../wire/current-wire.js';

/**
 * The soul's work for one run; it must stop and settle soon after `signal` aborts. `wire` is the
 * run's wire (kimi-ts's own souls take it explicitly: see RunScope).
 */
export type SoulRun = (signal: AbortSignal, wire: Wire) => Promise<void>;

/**
 * A front end's loop for one run. It must subscribe to the wire before its first await (so it sees
 * every message), should return once its subscriptions end, and must settle once `signal` aborts.
 */
export type UILoop = (wire: Wire, signal: AbortSignal) => Promise<void>;

/** Where notifications for the "wire" sink come from (the background-task notification store). */
export interface WireNotificationSource {
  /** Claims and returns up to `max` notifications not yet delivered to the wire. */
  drainWire(max: number, signal: AbortSignal): Notification[] | Promise<Notification[]>;
}

export interface RunSoulOptions {
  /** Record the run's merged messages to this wire.jsonl. */
  wireFile?: string | undefined;
  notifications?: WireNotificationSource | undefined;
  /** Failures of the notification pump or the recorder; the run goes on regardless. */
  onBackgroundError?: ((error: unknown, source: 'notifications' | 'recorder') => void) | undefined;
  /** Secrets kept off the wire and out of wire.jsonl. */
  redaction?: WireRedaction | undefined;
  /** Checked before each write of wire.jsonl (a fleet worker's lease); a refusal stops recording. */
  recordFence?: WriteFence | undefined;
  /**
   * Make the wire the current wire of everything started here (current-wire.ts: `wireSend`,
   * `currentWire`), as outside programs' souls expect. Default true. kimi-ts's sessions pass false and
   * hand the wire to the soul: on Node 20 and 22 the AsyncLocalStorage would make every promise of
   * the process pay its hooks from then on (see RunScope).
   */
  currentWire?: boolean | undefined;
}

export const NOTIFICATION_PUMP_INTERVAL_MS = 1000;
export const NOTIFICATIONS_PER_PUMP = 8;
/** How long the UI loop may take to finish after the wire shut down before it is told to stop. */
export const UI_SHUTDOWN_GRACE_MS = 500;

type Outcome = { ok: true } | { ok: false; error: unknown };

/**
 * Runs one soul run connected to a UI by a fresh Wire (seed 002 §2.3). The wire is handed to the soul
 * and (unless `currentWire` is false) becomes the current wire of everything started here, and four
 * things run together: the UI loop, the soul, a watcher on
 * `cancel`, and a pump that moves pending notifications onto the wire every second.
 *
 * Returns when the soul finishes (rethrowing its error). When `cancel` aborts first, the soul's
 * signal is aborted, every unanswered request on the wire is cancelled, and RunCancelled is thrown
 * once the soul has settled. Either way, before returning: the pump is stopped and flushed once, the
 * wire is shut down and its recorder has written everything, the UI loop has finished (after a 0.5 s
 * grace it is aborted and awaited), and no timer or listener of ours is left behind.
 */
export function runSoul(
  soul: SoulRun,
  ui: UILoop,
  cancel: AbortSignal,
  options: RunSoulOptions = {},
): Promise<void> {
  const onBackgroundError = options.onBackgroundError;
  const wire = new Wire({
    file: options.wireFile,
    onRecordError: onBackgroundError && ((error) => onBackgroundError(error, 'recorder')),
    redaction: options.redaction,
    recordFence: options.recordFence,
  });
  if (options.currentWire === false) return orchestrate(wire, soul, ui, cancel, options);
  return runWithWire(wire, () => orchestrate(wire, soul, ui, cancel, options));
}

async function orchestrate(
  wire: Wire,
  soul: SoulRun,
  ui: UILoop,
  cancel: AbortSignal,
  options: RunSoulOptions,
): Promise<void> {
  const uiControl = new AbortController();
  const soulControl = new AbortController();
  const pumpControl = new AbortController();

  // The UI starts first so that it has subscribed before the soul sends anything.
  const uiDone = settle(() => ui(wire, uiControl.signal));

  let stopWatching = (): void => {};
  const cancelled = new Promise<'cancelled'>((resolve) => {
    if (cancel.aborted) return resolve('cancelled');
    const onAbort = (): void => resolve('cancelled');
    cancel.addEventListener('abort', onAbort, { once: true });
    stopWatching = () => cancel.removeEventListener('abort', onAbort);
  });

  const soulDone: Promise<Outcome> = cancel.aborted
    ? Promise.resolve({ ok: false, error: cancel.reason })
    : settle(() => soul(soulControl.signal, wire));
  const pumpDone = options.notifications
    ? pumpNotifications(wire, options.notifications, pumpControl.signal, options.onBackgroundError)
    : Promise.resolve();

  let runError: { error: unknown } | null = null;
  try {
    const first = await Promise.race([soulDone, cancelled]);
    if (first === 'cancelled' || cancel.aborted) {
      soulControl.abort(cancel.reason);
      wire.cancelPendingRequests('The run was cancelled.');
      const outcome = await soulDone;
      // A soul that finished before it noticed the cancel counts as finished.
      if (!outcome.ok) runError = { error: cancelledBy(outcome.error) };
    } else if (!first.ok) {
      runError = { error: first.error };
    }
  } finally {
    stopWatching();
    // Nobody waits for an answer any more: release anything still pending (e.g. sent by a tool that
    // outlived its await).
    wire.cancelPendingRequests('The run ended before the request was answered.');
    pumpControl.abort();
    await pumpDone;
    await deliverNotifications(
      wire,
      options.notifications,
      new AbortController().signal,
      options.onBackgroundError,
    );
    wire.shutdown();
    await wire.join();
    const uiOutcome = await finishUI(uiDone, uiControl);
    if (runError === null && !uiOutcome.ok && !uiControl.signal.aborted)
      runError = { error: uiOutcome.error };
  }
  if (runError !== null) throw runError.error;
}

function cancelledBy(error: unknown): RunCancelled {
  const cancelled = new RunCancelled();
  if (!isAbortError(error) && !(error instanceof RunCancelled)) cancelled.cause = error;
  return cancelled;
}

async function finishUI(uiDone: Promise<Outcome>, uiControl: AbortController): Promise<Outcome> {
  const graceControl = new AbortController();
  const grace = delay(UI_SHUTDOWN_GRACE_MS, 'timeout' as const, { signal: graceControl.signal }).catch(
    () => 'done' as const,
  );
  const first = await Promise.race([uiDone, grace]);
  graceControl.abort();
  if (first !== 'timeout') return uiDone;
  uiControl.abort(new Error('The UI loop did not finish in time after the wire shut down.'));
  return uiDone;
}

async function pumpNotifications(
  wire: Wire,
  source: WireNotificationSource,
  signal: AbortSignal,
  onError: RunSoulOptions['onBackgroundError'],
): Promise<void> {
  while (!signal.aborted) {
    await deliverNotifications(wire, source, signal, onError);
    try {
      await delay(NOTIFICATION_PUMP_INTERVAL_MS, undefined, { signal });
    } catch {
      return; // aborted: the timer is already cleared
    }
  }
}

async function deliverNotifications(
  wire: Wire,
  source: WireNotificationSource | undefined,
  signal: AbortSignal,
  onError: RunSoulOptions['onBackgroundError'],
): Promise<void> {
  if (!source) return;
  try {
    const notifications = await source.drainWire(NOTIFICATIONS_PER_PUMP, signal);
    for (const payload of notifications.slice(0, NOTIFICATIONS_PER_PUMP))
      wire.send({ type: 'Notification', payload });
  } catch (error) {
    if (!(signal.aborted && isAbortError(error))) onError?.(error, 'notifications');
  }
}

/** Runs `fn` and captures its outcome, including a synchronous throw. */
function settle(fn: () => Promise<void>): Promise<Outcome> {
  try {
    return fn().then(
      (): Outcome => ({ ok: true }),
      (error: unknown): Outcome => ({ ok: false, error }),
    );
  } catch (error) {
    return Promise.resolve({ ok: false, error });
  }
}
