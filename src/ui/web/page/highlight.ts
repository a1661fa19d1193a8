import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

/**
 * Code highlighting without trusting HTML. highlight.js only returns HTML (escaped code text inside
 * `<span class="hljs-…">`); instead of handing that to `innerHTML`, `highlightCode` parses it back
 * with a strict grammar that knows exactly those two tags and the five entities highlight.js writes,
 * into a token tree the view renders as text nodes. Anything else in the output (which would mean a
 * highlight.js bug) makes the whole block plain text: the code itself is never interpreted.
 */

const LANGUAGES = { bash, css, diff, go, javascript, json, python, rust, typescript, xml, yaml };
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);

export type CodeToken = string | { scope: string; children: CodeToken[] };

/** Longer code is shown plain: highlighting is not worth a frozen tab. */
const MAX_HIGHLIGHT_CHARS = 100_000;

export function highlightCode(code: string, language: string): CodeToken[] {
  const name = language.trim().toLowerCase();
  if (!name || code.length > MAX_HIGHLIGHT_CHARS || !hljs.getLanguage(name)) return [code];
  let html: string;
  try {
    html = hljs.highlight(code, { language: name, ignoreIllegals: true }).value;
  } catch {
    return [code];
  }
  return parseHighlightedHtml(html) ?? [code];
}

const ENTITIES: Readonly<Record<string, string>> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#x27;': "'",
  '&#39;': "'",
};

const TOKEN = /<span class="([a-z0-9_ .-]+)">|<\/span>|&(?:amp|lt|gt|quot|#x27|#39);|[^<&]+/gy;

/** The token tree of highlight.js's HTML, or null when it holds anything but its spans and text. */
export function parseHighlightedHtml(html: string): CodeToken[] | null {
  const root: CodeToken[] = [];
  const stack: CodeToken[][] = [root];
  TOKEN.lastIndex = 0;
  let at = 0;
  while (at < html.length) {
    TOKEN.lastIndex = at;
    const match = TOKEN.exec(html);
    if (!match) return null;
    at = TOKEN.lastIndex;
    const top = stack[stack.length - 1]!;
    const text = match[0];
    if (match[1] !== undefined) {
      const children: CodeToken[] = [];
      top.push({ scope: match[1], children });
      stack.push(children);
    } else if (text === '</span>') {
      if (stack.length === 1) return null;
      stack.pop();
    } else {
      const value = ENTITIES[text] ?? text;
      const last = top[top.length - 1];
      if (typeof last === 'string') top[top.length - 1] = last + value;
      else top.push(value);
    }
  }
  return stack.length === 1 ? root : null;
}
