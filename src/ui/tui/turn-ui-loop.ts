import type { UILoop } from '../../soul/run-soul.js';
import type { WireMessage } from '../../wire/message.js';
import type { TurnView } from './turn-view.js';

/**
 * The UI loop of one turn in the terminal UI: each raw wire message goes to the turn's view and to
 * `seen` (the status line), then the screen is drawn again once per batch.
 */
export function turnUiLoop(
  view: TurnView,
  seen: (message: WireMessage) => void,
  screen: { requestRender(): void },
): UILoop {
  return async (wire) => {
    for await (const batch of wire.subscribe({ merge: false }).batches()) {
      for (const message of batch) {
        view.handle(message);
        seen(message);
      }
      screen.requestRender();
    }
  };
}
