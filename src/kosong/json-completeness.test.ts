import { describe, expect, it } from 'vitest';
import { JsonCompleteness } from './json-completeness.js';

function closedAfter(fragments: string[]): boolean {
  const json = new JsonCompleteness();
  for (const fragment of fragments) json.feed(fragment);
  return json.isClosed;
}

describe('JsonCompleteness', () => {
  it.each([
    [['{}'], true],
    [['  {', '"a":', '1', '}'], true],
    [['[1,', '[2]', ']'], true],
    [['{"a":"}"'], false],
    [['{"a":"}"', '}'], true],
    [['{"a":"\\"}"'], false],
    [['{"a":"\\\\"}'], true],
    [['{"a":{"b":[1]}'], false],
    [['{"a":{"b":[1]}}', '\n '], true],
    [['{}', 'x'], false],
    [[''], false],
    [['"just a string"'], false],
    [['{"emoji":"😀}"', '}'], true],
  ])('%j closed: %s', (fragments, closed) => {
    expect(closedAfter(fragments)).toBe(closed);
  });
});
