import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';

/** The main content of an HTML page as Markdown, with what is known about it. */
export interface ReadablePage {
  title: string;
  byline: string;
  publishedTime: string;
  markdown: string;
  /** `article`: Readability found the main content; `whole-page`: it did not, so this is the whole body. */
  source: 'article' | 'whole-page';
}

/** The few DOM members used here (linkedom implements them; the project compiles without DOM types). */
interface PageElement {
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  remove(): void;
}
interface PageDocument {
  querySelectorAll(selector: string): Iterable<PageElement>;
  body: { innerHTML: string } | null;
  title: string;
}

const NOISE = ['script', 'style', 'noscript', 'template', 'svg', 'canvas', 'iframe'] as const;

const turndown = new TurndownService({
  headingStyle: 'atx',
  codeBlockStyle: 'fenced',
  bulletListMarker: '-',
  emDelimiter: '*',
});
turndown.remove([...NOISE]);

/**
 * Extracts the readable part of an HTML page (Mozilla Readability on a linkedom DOM) and turns it
 * into Markdown. When Readability finds no main content, the whole body is converted instead.
 * Links and images are made absolute against `pageUrl` so they still work out of context.
 * Returns null when the page has no text at all.
 */
export function htmlToReadableMarkdown(html: string, pageUrl: string): ReadablePage | null {
  const document = parsePage(html, pageUrl);
  const title = document.title.trim();
  const article = new Readability(document as never).parse();
  const articleHtml = article?.content ?? '';
  if (articleHtml && (article?.textContent ?? '').trim()) {
    const markdown = tidy(turndown.turndown(articleHtml));
    if (markdown) {
      return {
        title: (article?.title ?? '').trim() || title,
        byline: (article?.byline ?? '').trim(),
        publishedTime: (article?.publishedTime ?? '').trim(),
        markdown,
        source: 'article',
      };
    }
  }
  // Readability rewrites the document it reads: start again from the original markup.
  const whole = parsePage(html, pageUrl);
  for (const tag of NOISE) for (const element of [...whole.querySelectorAll(tag)]) element.remove();
  const markdown = tidy(turndown.turndown(whole.body?.innerHTML ?? ''));
  if (!markdown) return null;
  return { title, byline: '', publishedTime: '', markdown, source: 'whole-page' };
}

function parsePage(html: string, pageUrl: string): PageDocument {
  const { document } = parseHTML(html) as unknown as { document: PageDocument };
  absolutize(document, 'a[href]', 'href', pageUrl);
  absolutize(document, 'img[src]', 'src', pageUrl);
  return document;
}

function absolutize(document: PageDocument, selector: string, attribute: string, base: string): void {
  for (const element of document.querySelectorAll(selector)) {
    const value = element.getAttribute(attribute) ?? '';
    if (/^\s*javascript:/i.test(value)) {
      element.removeAttribute(attribute);
      continue;
    }
    try {
      element.setAttribute(attribute, new URL(value, base).href);
    } catch {
      // Not a URL we can resolve: leave it as written.
    }
  }
}

/** Trims trailing spaces and runs of blank lines that conversion leaves behind. */
function tidy(markdown: string): string {
  return markdown
    .split('\n')
    .map((line) => line.replace(/[ \t]+$/, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
