import { describe, expect, it } from 'vitest';
import { type Message, message } from '../kosong/message.js';
import { normalizeHistory } from './normalize-history.js';
import { NOTIFICATION_TAG } from './notification-tag.js';

describe('normalizeHistory', () => {
  it('hands a history with nothing to merge over unchanged', () => {
    const history = [message('user', 'a'), message('assistant', 'b'), message('user', 'c')];
    expect(normalizeHistory(history)).toBe(history);
  });

  it('merges adjacent user messages as separate paragraphs, never glued', () => {
    const merged = normalizeHistory([
      message('user', 'first request: run the long thing'),
      message('user', 'second request: are you still there?'),
    ]);
    expect(merged).toEqual([
      message('user', 'first request: run the long thing\n\nsecond request: are you still there?'),
    ]);
  });

  it('keeps media parts as parts and leaves notifications and other roles alone', () => {
    const image: Message = {
      role: 'user',
      content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AA==' } }],
    };
    const notification = message('user', `${NOTIFICATION_TAG} done`);
    const merged = normalizeHistory([message('user', 'look'), image, notification, message('user', 'x')]);
    expect(merged).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'look' }, image.content[0]] },
      notification,
      message('user', 'x'),
    ]);
  });
});
