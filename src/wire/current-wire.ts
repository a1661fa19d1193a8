import { AsyncLocalStorage } from 'node:async_hooks';
import type { WireMessage } from './message.js';
import type { Wire } from './wire.js';

/**
 * The current wire of the code that is running, so that anything deep inside a soul run (a tool, the
 * approval runtime) can send without a wire being passed down. runSoul sets it for everything it runs.
 */
const currentWireStorage = new AsyncLocalStorage<Wire>();

/** Runs `fn` (and everything it starts) with `wire` as the current wire. */
export function runWithWire<T>(wire: Wire, fn: () => T): T {
  return currentWireStorage.run(wire, fn);
}

/** The current wire, or null outside a soul run. */
export function currentWire(): Wire | null {
  return currentWireStorage.getStore() ?? null;
}

/** The soul's one way out: sends a message on the current wire. */
export function wireSend(message: WireMessage): void {
  const wire = currentWireStorage.getStore();
  if (wire === undefined) {
    throw new Error(
      `wireSend(${message.type}) was called with no current wire: wire messages can only be sent from code running inside runSoul (or runWithWire).`,
    );
  }
  wire.send(message);
}
