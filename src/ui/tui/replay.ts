import { isWireRequest } from '../../wire/message.js';
import { readWireFile } from '../../wire/wire-file.js';
import type { TurnView } from './turn-view.js';

/**
 * What a resumed session said so far (its wire.jsonl), one view per turn, rendered the same way as a
 * live turn. Questions asked back then are not asked again. A new session has nothing to show.
 */
export async function replayConversation(wireFile: string, newTurnView: () => TurnView): Promise<TurnView[]> {
  const { records } = await readWireFile(wireFile).catch(() => ({ records: [] }));
  const views: TurnView[] = [];
  for (const { message } of records) {
    if (message.type === 'TurnBegin' || views.length === 0) views.push(newTurnView());
    const view = views.at(-1);
    if (isWireRequest(message)) continue;
    view?.handle(message);
  }
  return views;
}
