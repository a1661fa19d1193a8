import { readFile } from 'node:fs/promises';
import { describe, expect, test } from 'vitest';
import { EVENT_TYPES } from './events.js';
import { REQUEST_TYPES } from './requests.js';
import { EVERY_MESSAGE, FIRST_TIMESTAMP } from './test-support/every-message.js';
import { metadataLine, parseWireFile, recordLine } from './wire-file.js';

const fixtureURL = new URL('./fixtures/every-message.jsonl', import.meta.url);

/** The encoder derived from the schemas writes the bytes the hand-written serialiser wrote. */
describe('every-message.jsonl, written before the messages were declared once', () => {
  test('covers every event and request type, and SubagentEvent nesting', () => {
    const types = new Set(EVERY_MESSAGE.map((message) => message.type));
    expect([...types].sort()).toEqual([...EVENT_TYPES, ...REQUEST_TYPES].sort());
    const nested = EVERY_MESSAGE.filter((m) => m.type === 'SubagentEvent').map((m) => m.payload.event.type);
    expect(nested).toEqual(['ContentPart', 'ToolResult', 'SubagentEvent']);
  });

  test('the in-memory messages encode to the same bytes', async () => {
    const original = await readFile(fixtureURL, 'utf8');
    let written = metadataLine();
    EVERY_MESSAGE.forEach((message, i) => {
      written += recordLine(message, FIRST_TIMESTAMP + i / 8);
    });
    expect(written.split('\n')).toEqual(original.split('\n'));
  });

  test('reading the file and writing it again gives the same bytes', async () => {
    const original = await readFile(fixtureURL, 'utf8');
    const contents = parseWireFile(original);
    expect(contents.problems).toEqual([]);
    expect(contents.records).toHaveLength(EVERY_MESSAGE.length);
    const written =
      metadataLine(contents.protocolVersion) +
      contents.records.map((record) => recordLine(record.message, record.timestamp)).join('');
    expect(written.split('\n')).toEqual(original.split('\n'));
  });
});
