import { copyPart } from '../../merge.js';
import type { StreamedPart } from '../../message.js';
import type { StreamedMessage } from '../../provider.js';
import { failureToError, type ScriptedTurn } from './scripted-turn.js';

/**
 * Parts streamed between two turns of the event loop. Async generators only hop through
 * microtasks, so without an occasional macrotask yield a long script would starve timers and I/O
 * (and an abort fired from them) until it ended; doing it for every part would make a 100,000-part
 * stream crawl.
 */
const PARTS_PER_EVENT_LOOP_TURN = 512;

/**
 * Plays a turn as a provider stream. Every part is a fresh copy, because `generate` merges
 * fragments into the first one in place and the turn may be replayed (echo) or owned by the caller
 * (`fromParts`). Rejects at open when the turn is a failure with no parts.
 */
export function openTurnStream(turn: ScriptedTurn, signal: AbortSignal | undefined): StreamedMessage {
  signal?.throwIfAborted();
  if (turn.parts.length === 0 && turn.failure !== null) throw failureToError(turn.failure);
  const usage = turn.usage === null ? null : { ...turn.usage };
  return {
    id: turn.id,
    usage,
    [Symbol.asyncIterator]: () => playParts(turn, signal),
  };
}

async function* playParts(turn: ScriptedTurn, signal: AbortSignal | undefined): AsyncGenerator<StreamedPart> {
  const { parts } = turn;
  for (let index = 0; index < parts.length; index++) {
    if (index > 0 && index % PARTS_PER_EVENT_LOOP_TURN === 0) await nextEventLoopTurn();
    signal?.throwIfAborted();
    yield copyPart(parts[index] as StreamedPart);
  }
  signal?.throwIfAborted();
  if (turn.failure !== null) throw failureToError(turn.failure);
}

function nextEventLoopTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
