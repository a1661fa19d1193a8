import type { ContentPart, Message } from '../kosong/message.js';
import { NOTIFICATION_TAG } from './notification-tag.js';

/** What separates two user messages merged into one: they stay two paragraphs, never one glued line. */
export const MERGED_USER_SEPARATOR = '\n\n';

function mergeable(a: Message | undefined, b: Message): boolean {
  return (
    a !== undefined && a.role === 'user' && b.role === 'user' && !isNotification(a) && !isNotification(b)
  );
}

function needsMerge(history: readonly Message[]): boolean {
  for (let i = 1; i < history.length; i++) if (mergeable(history[i - 1], history[i]!)) return true;
  return false;
}

function isNotification(msg: Message): boolean {
  const first = msg.content[0];
  return first?.type === 'text' && first.text.startsWith(NOTIFICATION_TAG);
}

/**
 * The content of two user messages as one. Providers write a message's text parts as one string
 * without separators, so where text meets text the separator goes into the text itself.
 */
function joinContent(first: readonly ContentPart[], second: readonly ContentPart[]): ContentPart[] {
  const last = first[first.length - 1];
  const next = second[0];
  if (last?.type === 'text' && next?.type === 'text') {
    return [
      ...first.slice(0, -1),
      { type: 'text', text: `${last.text}${MERGED_USER_SEPARATOR}${next.text}` },
      ...second.slice(1),
    ];
  }
  return [...first, ...second];
}

/**
 * The history sent to the API: adjacent user messages merged into one (some APIs reject two user
 * turns in a row), except notifications, which stay separate. The stored context is not changed.
 */
export function normalizeHistory(history: readonly Message[]): readonly Message[] {
  // Most steps have nothing to merge: hand the history over as it is, without copying it.
  if (!needsMerge(history)) return history;
  const out: Message[] = [];
  for (const msg of history) {
    const last = out[out.length - 1];
    if (last && mergeable(last, msg)) {
      out[out.length - 1] = { ...last, content: joinContent(last.content, msg.content) };
    } else {
      out.push(msg);
    }
  }
  return out;
}
