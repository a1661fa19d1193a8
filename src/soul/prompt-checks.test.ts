import { describe, expect, it } from 'vitest';
import { isEmptyPrompt, slashCommandText, unknownCommandText } from './prompt-checks.js';

describe('prompt checks', () => {
  it.each([
    ['', true],
    ['  \n', true],
    ['hi', false],
    [[], true],
    [[{ type: 'text' as const, text: ' ' }], true],
    [[{ type: 'image_url' as const, image_url: { url: 'data:image/png;base64,AA' } }], false],
  ])('isEmptyPrompt(%j) is %s', (input, expected) => {
    expect(isEmptyPrompt(input)).toBe(expected);
  });

  it('reads slash commands from text-only input, never from input with media', () => {
    expect(slashCommandText('/compact now')).toBe('/compact now');
    expect(slashCommandText([{ type: 'text', text: '/compact' }])).toBe('/compact');
    expect(
      slashCommandText([
        { type: 'text', text: '/compact' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AA' } },
      ]),
    ).toBe('');
    expect(unknownCommandText('nosuch')).toBe('unknown command /nosuch — /help lists them');
  });
});
