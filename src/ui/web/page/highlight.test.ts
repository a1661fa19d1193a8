import { describe, expect, it } from 'vitest';
import { highlightCode, parseHighlightedHtml } from './highlight.js';

const text = (tokens: ReturnType<typeof highlightCode>): string =>
  tokens.map((t) => (typeof t === 'string' ? t : text(t.children))).join('');

describe('highlightCode', () => {
  it('keeps the code text exactly, markup characters included', () => {
    const code = `const s = '<img src=x onerror=alert(1)>' && "&amp;" // </span><script>`;
    const tokens = highlightCode(code, 'typescript');
    expect(text(tokens)).toBe(code);
    expect(tokens.some((t) => typeof t !== 'string' && t.scope === 'hljs-keyword')).toBe(true);
  });

  it('gives plain text for an unknown language', () => {
    expect(highlightCode('<b>x</b>', 'klingon')).toEqual(['<b>x</b>']);
  });
});

describe('parseHighlightedHtml', () => {
  it('accepts only highlight.js spans, text and its entities', () => {
    expect(parseHighlightedHtml('<span class="hljs-string">&quot;a&lt;&quot;</span> x')).toEqual([
      { scope: 'hljs-string', children: ['"a<"'] },
      ' x',
    ]);
  });

  it.each([
    '<img src=x onerror=alert(1)>',
    '<span class="x" onclick="y">a</span>',
    '<span class="hljs-a">unclosed',
    'a</span>',
    '&nbsp;',
  ])('refuses anything else: %s', (html) => {
    expect(parseHighlightedHtml(html)).toBeNull();
  });
});
