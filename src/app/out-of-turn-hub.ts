import type { WireMessage } from '../wire/message.js';

export type OutOfTurnListener = (message: WireMessage) => void;

/**
 * The session's channel for what happens between turns: a background agent's ApprovalRequest, and
 * the ApprovalResponse that settled it. Front ends that can answer at any time (wire mode) listen;
 * whoever raises such a request publishes it here when no turn is running, and keeps it for the next
 * turn when nobody listens.
 */
export class OutOfTurnHub {
  private readonly listeners = new Set<OutOfTurnListener>();
  private readonly listenerAdded = new Set<() => void>();

  /** Starts listening; returns the function that stops. Held requests are handed over at once. */
  listen(listener: OutOfTurnListener): () => void {
    this.listeners.add(listener);
    for (const callback of this.listenerAdded) callback();
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Hands `message` to every listener; false when nobody listens. */
  publish(message: WireMessage): boolean {
    if (this.listeners.size === 0) return false;
    for (const listener of [...this.listeners]) listener(message);
    return true;
  }

  /** Runs `callback` whenever a listener starts listening (e.g. to hand over held requests). */
  onListenerAdded(callback: () => void): void {
    this.listenerAdded.add(callback);
  }
}
