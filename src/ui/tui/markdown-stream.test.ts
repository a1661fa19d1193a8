import { describe, expect, it } from 'vitest';
import { MarkdownStream } from './markdown-stream.js';

/** Feeds `text` a few characters at a time, as a model streams it. */
function feed(text: string, size = 3): { blocks: string[]; stream: MarkdownStream } {
  const stream = new MarkdownStream();
  const blocks: string[] = [];
  for (let i = 0; i < text.length; i += size) blocks.push(...stream.append(text.slice(i, i + size)));
  return { blocks, stream };
}

describe('MarkdownStream', () => {
  it('hands out each paragraph once the next one starts, and keeps the last open', () => {
    const { blocks, stream } = feed('# Title\n\nFirst paragraph\nstill first.\n\nSecond');
    expect(blocks).toEqual(['# Title\n\n', 'First paragraph\nstill first.\n\n']);
    expect(stream.tail).toBe('Second');
  });

  it('never cuts inside a code fence, even at blank lines', () => {
    const text = 'Code:\n\n```ts\nconst a = 1;\n\nconst b = 2;\n```\n\nAfter';
    const { blocks, stream } = feed(text);
    expect(blocks).toEqual(['Code:\n\n', '```ts\nconst a = 1;\n\nconst b = 2;\n```\n\n']);
    expect(stream.tail).toBe('After');
    expect(blocks.join('') + stream.tail).toBe(text);
  });

  it('keeps an indented continuation with its list item', () => {
    const { blocks, stream } = feed('- item\n\n  more of the item\n\nNext');
    expect(blocks).toEqual(['- item\n\n  more of the item\n\n']);
    expect(stream.tail).toBe('Next');
  });

  it('a longer fence closes only with a fence as long', () => {
    const { blocks } = feed('````md\n```\nnot closed\n\n````\n\nend\n');
    expect(blocks).toEqual(['````md\n```\nnot closed\n\n````\n\n']);
  });

  it('loses and duplicates nothing, whatever the chunk size', () => {
    const text = '## A\n\ntext\n\n```\nx\n\ny\n```\n\n- a\n- b\n\n| h |\n| - |\n| 1 |\n\ntail';
    for (const size of [1, 2, 5, 17, 1000]) {
      const { blocks, stream } = feed(text, size);
      expect(blocks.join('') + stream.tail).toBe(text);
      expect(blocks).toHaveLength(5);
    }
  });
});
