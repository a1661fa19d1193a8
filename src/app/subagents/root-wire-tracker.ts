import { currentWire } from '../../wire/current-wire.js';
import type { WireRequest } from '../../wire/requests.js';
import type { Wire } from '../../wire/wire.js';

/**
 * Knows the wire of the root turn running now, if any, so that a background subagent's requests
 * reach the user: sent at once during a turn, or held (still pending) until the next turn starts.
 */
export class RootWireTracker {
  private wire: Wire | null = null;
  private held: WireRequest[] = [];

  /** Called at the start of every root turn, inside it (its wire is the current one). */
  turnStarted(): void {
    this.wire = currentWire();
    const held = this.held;
    this.held = [];
    for (const request of held) this.deliver(request);
  }

  /** The wire of the running root turn, or null between turns. */
  get liveWire(): Wire | null {
    return this.wire && !this.wire.isShutDown ? this.wire : null;
  }

  deliver(request: WireRequest): void {
    if (!request.isPending) return;
    const wire = this.liveWire;
    if (wire) wire.send(request);
    else this.held.push(request);
  }
}
