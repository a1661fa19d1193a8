import { wireEvent } from '../../wire/events.js';
import type { WireRequest } from '../../wire/requests.js';
import type { Wire } from '../../wire/wire.js';
import { OutOfTurnHub } from '../out-of-turn-hub.js';

/**
 * Knows the wire of the root turn running now, if any, so that a background subagent's requests
 * reach the user: sent on it during a turn; between turns published to the front ends listening on
 * the session's out-of-turn hub (wire mode), or held, still pending, until the next turn starts.
 */
export class RootWireTracker {
  private wire: Wire | null = null;
  private held: WireRequest[] = [];

  constructor(private readonly outOfTurn: OutOfTurnHub = new OutOfTurnHub()) {
    outOfTurn.onListenerAdded(() => {
      if (!this.liveWire) this.deliverHeld();
    });
  }

  /** Called at the start of every root turn with its wire. */
  turnStarted(wire: Wire | null): void {
    this.wire = wire;
    this.deliverHeld();
  }

  private deliverHeld(): void {
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
    else if (this.outOfTurn.publish(request)) this.reportAnswer(request);
    else this.held.push(request);
  }

  /** Tells the front ends how an approval published between turns was settled, wherever that happened. */
  private reportAnswer(request: WireRequest): void {
    if (request.type !== 'ApprovalRequest') return;
    void request.wait().then((answer) => {
      const response = wireEvent('ApprovalResponse', {
        request_id: request.id,
        response: answer.response,
        feedback: answer.feedback,
      });
      const wire = this.liveWire;
      if (wire) wire.send(response);
      else this.outOfTurn.publish(response);
    });
  }
}
