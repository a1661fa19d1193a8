import { formatSeconds, type StallOptions } from '../kosong/stall-watchdog.js';
import { wireEvent } from '../wire/events.js';
import type { WireMessage } from '../wire/message.js';

/** The default of `[loop_control] stall_timeout_s`: how long a model may stay silent. */
export const DEFAULT_STALL_TIMEOUT_MS = 120_000;

/** The notification type front ends see while the model is silent. */
export const MODEL_WAITING_TYPE = 'model.waiting';

/** The stall watch of a model call the soul makes: its timeout, and the wire told of every wait. */
export function soulStallOptions(
  stallTimeoutMs: number | undefined,
  send: (message: WireMessage) => void,
): StallOptions {
  const timeoutMs = stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS;
  return {
    timeoutMs,
    onWaiting: (silentMs) => send(modelWaitingNotification(silentMs, timeoutMs)),
  };
}

/**
 * What every front end shows while the model has been silent for a while: a Notification (which
 * every front end already shows), e.g. "waiting for the model: 60 s…". Never part of the context.
 */
export function modelWaitingNotification(silentMs: number, timeoutMs: number): WireMessage {
  const title = `waiting for the model: ${formatSeconds(silentMs)}…`;
  return wireEvent('Notification', {
    id: `model-waiting-${Date.now().toString(36)}`,
    category: 'system',
    type: MODEL_WAITING_TYPE,
    source_kind: 'soul',
    source_id: 'model',
    title,
    body: `No answer from the model for ${formatSeconds(silentMs)}; the request is abandoned after ${formatSeconds(timeoutMs)} of silence (loop_control.stall_timeout_s) and retried.`,
    severity: 'info',
    created_at: Date.now() / 1000,
    payload: { silent_s: silentMs / 1000, timeout_s: timeoutMs / 1000 },
  });
}
