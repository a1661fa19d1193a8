import { parseHTML } from 'linkedom';
import { h, render } from 'preact';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeEntities, MarkdownView } from './markdown-view.js';

let document: Document;

beforeAll(() => {
  const window = parseHTML('<!doctype html><html><body></body></html>');
  document = window.document as unknown as Document;
  // Preact creates elements through the global document.
  (globalThis as { document?: unknown }).document = document;
});

function renderMarkdown(text: string): HTMLElement {
  const root = document.createElement('div');
  render(h(MarkdownView, { text }), root);
  return root;
}

const allElements = (root: HTMLElement) =>
  [...root.querySelectorAll('*')].map((el) => el.tagName.toLowerCase());

describe('MarkdownView', () => {
  it('renders Markdown structure as elements', () => {
    const root = renderMarkdown(
      '# Title\n\nSome **bold** and `code`.\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |',
    );
    expect(root.querySelector('h1')?.textContent).toBe('Title');
    expect(root.querySelector('strong')?.textContent).toBe('bold');
    expect(root.querySelector('code')?.textContent).toBe('code');
    expect(root.querySelectorAll('li')).toHaveLength(2);
    expect(root.querySelector('td')?.textContent).toBe('1');
  });

  it('shows raw HTML of a hostile answer as text, creating no element from it', () => {
    const hostile =
      'Hi <img src=x onerror="alert(1)"> there\n\n<script>alert(2)</script>\n\n<iframe src="javascript:alert(3)"></iframe>';
    const root = renderMarkdown(hostile);
    const tags = allElements(root);
    expect(tags).not.toContain('img');
    expect(tags).not.toContain('script');
    expect(tags).not.toContain('iframe');
    expect(root.textContent).toContain('<img src=x onerror="alert(1)">');
    expect(root.textContent).toContain('<script>alert(2)</script>');
    for (const el of root.querySelectorAll('*'))
      for (const attr of el.getAttributeNames()) expect(attr.startsWith('on')).toBe(false);
  });

  it.each([
    '[click](javascript:alert(1))',
    '[click](JaVaScRiPt:alert(1))',
    '[click]( javascript:alert(1))',
    '[click](java\tscript:alert(1))',
    '[click](data:text/html,<script>alert(1)</script>)',
    '[click](vbscript:msgbox(1))',
    '[click](/api/sessions)',
    '<javascript:alert(1)>',
  ])('keeps the link %s inert (no href)', (md) => {
    const root = renderMarkdown(md);
    for (const a of root.querySelectorAll('a')) {
      const href = a.getAttribute('href') ?? '';
      expect(href).toMatch(/^(https?:|mailto:)/);
    }
    expect(root.querySelectorAll('[href^="javascript" i], [href^="data" i]')).toHaveLength(0);
  });

  it('keeps web links clickable, opening elsewhere without a referrer', () => {
    const a = renderMarkdown('[docs](https://example.com/a?b=1)').querySelector('a');
    expect(a?.getAttribute('href')).toBe('https://example.com/a?b=1');
    expect(a?.getAttribute('rel')).toContain('noopener');
    expect(a?.getAttribute('target')).toBe('_blank');
  });

  it('does not load images: an image becomes a labelled link', () => {
    const root = renderMarkdown('![pixel](https://tracker.example/p.png) ![x](javascript:alert(1))');
    expect(allElements(root)).not.toContain('img');
    expect(root.textContent).toContain('[image: pixel]');
    expect(root.querySelectorAll('a')).toHaveLength(1);
  });

  it('highlights code with spans holding only text', () => {
    const root = renderMarkdown('```ts\nconst a = "<b>" + 1; // <script>\n```');
    const code = root.querySelector('pre code');
    expect(code?.textContent).toBe('const a = "<b>" + 1; // <script>');
    expect(code?.querySelector('.hljs-keyword')?.textContent).toBe('const');
    expect(new Set(allElements(code as HTMLElement))).toEqual(new Set(['span']));
  });

  it('renders code in an unknown language as plain text', () => {
    const code = renderMarkdown('```nolang\n<img src=x onerror=alert(1)>\n```').querySelector('pre code');
    expect(code?.textContent).toBe('<img src=x onerror=alert(1)>');
    expect(code?.children).toHaveLength(0);
  });
});

describe('decodeEntities', () => {
  it('turns character references into characters (which stay text)', () => {
    expect(decodeEntities('a &amp; b &lt;script&gt; &#x41;&#66; &bogus;')).toBe('a & b <script> AB &bogus;');
  });
  it('leaves invalid code points alone', () => {
    expect(decodeEntities('&#xD800; &#0; &#x110000;')).toBe('&#xD800; &#0; &#x110000;');
  });
});
