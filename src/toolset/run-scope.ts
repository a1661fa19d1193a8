import { currentWire } from '../wire/current-wire.js';
import type { WireMessage } from '../wire/message.js';
import type { Wire } from '../wire/wire.js';
import { type ApprovalSource, currentApprovalSource } from './approval/approval-source.js';

/** What code deep in a soul run knows of the run: the wire it sends on and whose approvals it asks. */
export interface RunContext {
  /** The run's wire; null where no run is (a toolset driven directly): nobody watches. */
  readonly wire: Wire | null;
  /** The origin of the run's approval requests (a turn, a subagent run, a background task). */
  readonly approvalSource: ApprovalSource | undefined;
}

/**
 * A soul's run context, passed explicitly: the soul enters it for each run, its toolset hands it to
 * every tool call (the tool, its live output, its approval requests, its questions to the user).
 *
 * ARCHITECTURE.md makes the current wire an AsyncLocalStorage. This is a measured exception: on Node
 * 20 and 22, once any AsyncLocalStorage has run, every promise of the process pays its promise
 * hooks, ~0.7 ms of CPU per Shell step of a session (issue #26; Node 24's AsyncContextFrame does
 * not). Code deep in a run still reaches its wire without a global: through the soul, its toolset and
 * the call's context. Where no run was entered here (an outside program's soul under `runSoul`, a
 * test under `runWithWire`), the stores of current-wire.ts and approval-source.ts are read; reading
 * (`getStore`) enables no hook.
 */
export class RunScope {
  private entered: RunContext | null = null;

  /** Makes `context` the soul's run context until the returned function is called. */
  enter(context: RunContext): () => void {
    const previous = this.entered;
    this.entered = context;
    return () => {
      this.entered = previous;
    };
  }

  /** The run context now (kept by a tool call for its whole life, as its start saw it). */
  current(): RunContext {
    return runContextOr(this.entered ?? undefined);
  }

  get wire(): Wire | null {
    return this.entered ? this.entered.wire : currentWire();
  }

  /**
   * Sends on the wire of the run now, if any, also once the run is over (a fired hook's events):
   * outside a run nobody watches.
   */
  reporter(): (message: WireMessage) => void {
    return reporterOn(this.wire);
  }

  /** The soul's one way out: sends a message on the run's wire. */
  readonly send = (message: WireMessage): void => {
    sendOn(this.wire, message);
  };
}

/** `run`, or (none given) the one current in the caller: the stores of current-wire.ts and approval-source.ts. */
export function runContextOr(run: RunContext | undefined): RunContext {
  return run ?? { wire: currentWire(), approvalSource: currentApprovalSource() };
}

/** Sends on `wire` if there is one. */
export function reporterOn(wire: Wire | null): (message: WireMessage) => void {
  return (message) => wire?.send(message);
}

/** Sends on `wire`; throws (as `wireSend` does) when there is no run to send in. */
export function sendOn(wire: Wire | null, message: WireMessage): void {
  if (wire === null) {
    throw new Error(
      `A wire message (${message.type}) was sent with no current wire: wire messages can only be sent from code running inside a soul run.`,
    );
  }
  wire.send(message);
}
