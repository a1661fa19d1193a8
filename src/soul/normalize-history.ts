import type { Message } from '../kosong/message.js';
import { NOTIFICATION_TAG } from './notification-tag.js';

function isNotification(msg: Message): boolean {
  const first = msg.content[0];
  return first?.type === 'text' && first.text.startsWith(NOTIFICATION_TAG);
}

/**
 * The history sent to the API: adjacent user messages merged into one (some APIs reject two user
 * turns in a row), except notifications, which stay separate. The stored context is not changed.
 */
export function normalizeHistory(history: readonly Message[]): Message[] {
  const out: Message[] = [];
  for (const msg of history) {
    const last = out[out.length - 1];
    if (
      last &&
      last.role === 'user' &&
      msg.role === 'user' &&
      !isNotification(last) &&
      !isNotification(msg)
    ) {
      out[out.length - 1] = { ...last, content: [...last.content, ...msg.content] };
    } else {
      out.push(msg);
    }
  }
  return out;
}
