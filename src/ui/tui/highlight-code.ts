import { createRequire } from 'node:module';

/** The part of highlight.js used here. */
interface Highlighter {
  registerLanguage(name: string, language: unknown): void;
  getLanguage(name: string): unknown;
  highlight(code: string, options: { language: string; ignoreIllegals: boolean }): { value: string };
}

// The languages agents write most; each registers its aliases too (ts, js, sh, py, html, yml...).
const LANGUAGES = [
  'bash',
  'c',
  'cpp',
  'css',
  'diff',
  'go',
  'java',
  'javascript',
  'json',
  'python',
  'rust',
  'sql',
  'typescript',
  'xml',
  'yaml',
];

let highlighter: Highlighter | null = null;
/** Languages whose grammar has been compiled (highlight.js compiles one on its first use: 5–60 ms). */
const warm = new Set<string>();

/**
 * highlight.js, loaded on the first code block (start-up does not pay for it) and through `require`:
 * its type declarations pull the DOM library into the whole program, which a Node program must not
 * type-check against.
 */
/**
 * Loads highlight.js and compiles each grammar ahead of use, one per macrotask, so that the first
 * code block of an answer does not stall a frame. Start it when the UI is idle (after start-up).
 */
export async function warmHighlighter(): Promise<void> {
  const hljs = loadHighlighter();
  for (const name of LANGUAGES) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (warm.has(name)) continue;
    hljs.highlight('x', { language: name, ignoreIllegals: true });
    warm.add(name);
  }
}

function loadHighlighter(): Highlighter {
  if (highlighter) return highlighter;
  const load = createRequire(import.meta.url);
  const core = load('highlight.js/lib/core') as Highlighter;
  for (const name of LANGUAGES) core.registerLanguage(name, load(`highlight.js/lib/languages/${name}`));
  highlighter = core;
  return core;
}

/** The ANSI foreground colour of each highlight.js scope (by its first class name). */
const SCOPE_COLOR: Readonly<Record<string, string>> = {
  keyword: '35',
  built_in: '36',
  type: '36',
  literal: '33',
  number: '33',
  string: '32',
  regexp: '32',
  symbol: '33',
  comment: '90',
  doc: '90',
  meta: '90',
  title: '34',
  'title.function': '34',
  'title.class': '36',
  attr: '33',
  attribute: '33',
  variable: '31',
  params: '39',
  addition: '32',
  deletion: '31',
  section: '34',
  tag: '34',
  name: '34',
};

const ENTITIES: Readonly<Record<string, string>> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#x27;': "'",
  '&#39;': "'",
};

/**
 * A code block's lines with ANSI colours; code of an unknown (or still streaming, half-typed)
 * language stays plain. Each line carries its own colour
 * codes, so a line cut or reset by the renderer never bleeds colour into the next.
 */
export function highlightCode(code: string, language?: string): string[] {
  let html: string;
  try {
    const hljs = language ? loadHighlighter() : null;
    if (language && hljs?.getLanguage(language))
      html = hljs.highlight(code, { language, ignoreIllegals: true }).value;
    else return code.split('\n');
  } catch {
    return code.split('\n');
  }
  return htmlToAnsiLines(html);
}

function htmlToAnsiLines(html: string): string[] {
  const lines: string[] = [''];
  const stack: string[] = [];
  const token = /<span class="([^"]*)">|<\/span>|([^<]+)/g;
  for (let match = token.exec(html); match; match = token.exec(html)) {
    const [whole, classes, text] = match;
    if (classes !== undefined) {
      const scope = classes.split(' ')[0]?.replace(/^hljs-/, '') ?? '';
      stack.push(SCOPE_COLOR[scope] ?? SCOPE_COLOR[scope.split('.')[0] ?? ''] ?? stack.at(-1) ?? '39');
    } else if (whole === '</span>') {
      stack.pop();
    } else if (text !== undefined) {
      const colour = stack.at(-1);
      const plain = text.replace(/&(?:amp|lt|gt|quot|#x27|#39);/g, (entity) => ENTITIES[entity] ?? entity);
      plain.split('\n').forEach((part, i) => {
        if (i > 0) lines.push('');
        if (part)
          lines[lines.length - 1] += colour && colour !== '39' ? `\x1b[${colour}m${part}\x1b[39m` : part;
      });
    }
  }
  return lines;
}
