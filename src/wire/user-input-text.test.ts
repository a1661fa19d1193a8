import { describe, expect, it } from 'vitest';
import type { UserInput } from './payloads.js';
import { userInputText } from './user-input-text.js';

describe('userInputText', () => {
  const parts: UserInput = [
    { type: 'text', text: 'look at' },
    { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
    { type: 'text', text: 'this' },
  ];

  it('takes a string as it is', () => {
    expect(userInputText('fix the bug\nplease')).toBe('fix the bug\nplease');
  });

  it('joins the text parts by a space, media left out or shown as a placeholder', () => {
    expect(userInputText(parts)).toBe('look at this');
    expect(userInputText(parts, 'placeholder')).toBe('look at [image] this');
    expect(userInputText([])).toBe('');
  });
});
