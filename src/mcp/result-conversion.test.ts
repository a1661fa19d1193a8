import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { saveFullOutput, truncationNotice, wrapLines } from './full-output.js';
import { convertToolResult } from './result-conversion.js';

const text = (value: string): CallToolResult['content'][number] => ({ type: 'text', text: value });
const image = (data: string): CallToolResult['content'][number] => ({
  type: 'image',
  data,
  mimeType: 'image/png',
});

describe('convertToolResult', () => {
  it('turns every kind of block into a content part', () => {
    const converted = convertToolResult({
      content: [
        text('hello'),
        image('AAAA'),
        { type: 'audio', data: 'BBBB', mimeType: 'audio/wav' },
        { type: 'resource', resource: { uri: 'file:///a.txt', text: 'inside' } },
        { type: 'resource', resource: { uri: 'file:///v.mp4', mimeType: 'video/mp4', blob: 'CCCC' } },
        { type: 'resource', resource: { uri: 'file:///r.pdf', mimeType: 'application/pdf', blob: 'DDDD' } },
        { type: 'resource_link', uri: 'file:///d.csv', name: 'd.csv', description: 'the data' },
      ],
    });
    expect(converted.truncated).toBe(false);
    expect(converted.parts).toEqual([
      { type: 'text', text: 'hello' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
      { type: 'audio_url', audio_url: { url: 'data:audio/wav;base64,BBBB' } },
      { type: 'text', text: 'inside' },
      { type: 'video_url', video_url: { url: 'data:video/mp4;base64,CCCC' } },
      { type: 'text', text: '[Unsupported content: embedded resource file:///r.pdf (application/pdf)]' },
      { type: 'text', text: '[Resource link: d.csv <file:///d.csv> (the data)]' },
    ]);
  });

  it('shows structured content as JSON when the server sent no content blocks', () => {
    const converted = convertToolResult({ content: [], structuredContent: { sum: 3 } });
    expect(converted.parts).toEqual([{ type: 'text', text: '{"sum":3}' }]);
  });

  it.each([
    {
      name: 'text within the budget is kept whole',
      content: [text('a'.repeat(6)), text('b'.repeat(4))],
      parts: ['aaaaaa', 'bbbb'],
      firstCut: null,
    },
    {
      name: 'text over the budget is cut where the budget ends, later text left out',
      content: [text('a'.repeat(6)), text('b'.repeat(6)), text('c')],
      parts: ['aaaaaa', 'bbbb'],
      firstCut: { block: 1, offset: 4 },
    },
    {
      name: 'media counts its data URL length and is dropped whole when it does not fit',
      content: [text('a'.repeat(2)), image('X'.repeat(30)), text('b'.repeat(3))],
      parts: ['aa', 'bbb'],
      firstCut: null,
    },
  ])('budget: $name', ({ content, parts, firstCut }) => {
    const converted = convertToolResult({ content }, 10);
    expect(converted.parts.map((part) => (part.type === 'text' ? part.text : part.type))).toEqual(parts);
    expect(converted.firstCut).toEqual(firstCut);
    expect(converted.truncated).toBe(firstCut !== null || content.some((block) => block.type === 'image'));
  });
});

describe('saveFullOutput', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kimi-ts-mcp-output-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps all the text, says on which line the visible part stops, and saves dropped media', async () => {
    const rows = Array.from({ length: 50 }, (_, n) => `row ${n + 1}`);
    const converted = convertToolResult(
      { content: [text('intro'), image('iVBORw0K'.repeat(10)), text(rows.join('\n'))] },
      42,
    );
    const saved = await saveFullOutput(converted, { dir, toolName: 'list rows', callId: 'call:7' });

    expect(saved.textFile).toBe(join(dir, 'list_rows-call_7.txt'));
    const file = await readFile(saved.textFile, 'utf8');
    expect(file.split('\n')[0]).toBe('intro');
    expect(file).toContain(`saved as ${join(dir, 'list_rows-call_7-media-2.png')}`);
    expect(file).toContain('row 50');
    // 42 characters: "intro" (5) + 37 of the rows text, which ends inside "row 7".
    expect(converted.parts.at(-1)).toEqual({ type: 'text', text: rows.join('\n').slice(0, 37) });
    expect(file.split('\n')[(saved.resumeLine ?? 0) - 1]).toBe('row 7');
    expect(saved.media).toEqual([{ path: join(dir, 'list_rows-call_7-media-2.png'), mimeType: 'image/png' }]);
    expect(await readFile(saved.media[0]!.path)).toEqual(Buffer.from('iVBORw0K'.repeat(10), 'base64'));

    const notice = truncationNotice(saved, 42);
    expect(notice).toContain(`ReadFile with path "${saved.textFile}", line_offset ${saved.resumeLine}`);
    expect(notice).toContain('ReadMediaFile');
  });

  it('wraps long lines so each can be read whole', () => {
    expect(wrapLines('abcdefg\nhi', 3)).toBe('abc\ndef\ng\nhi');
  });

  it('falls back to asking for less when nothing could be saved', () => {
    expect(truncationNotice(null, 100_000)).toMatch(/exceeded the 100000-character limit.*pagination/);
  });
});
