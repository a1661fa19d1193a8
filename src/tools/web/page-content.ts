/**
 * What kind of content a fetched page is, and its text. Pages declare a charset in the
 * Content-Type header or, for HTML, in a `<meta>` tag near the top; anything unknown decodes as UTF-8.
 */

export type PageKind = 'html' | 'text' | 'binary';

/** Types returned as they are: the model reads them as well as a person would. */
const VERBATIM_TYPES = new Set(['text/plain', 'text/markdown', 'text/x-markdown']);
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const TEXT_APPLICATION_TYPES = new Set([
  'application/json',
  'application/xml',
  'application/javascript',
  'application/ecmascript',
  'application/x-yaml',
  'application/yaml',
  'application/toml',
  'application/x-sh',
]);

/** The media type without parameters, lower-cased (`text/html; charset=utf-8` → `text/html`). */
export function mediaTypeOf(contentType: string | null): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Whether the type is one the reference returns verbatim as "the full content of the page". */
export function isVerbatimType(mediaType: string): boolean {
  return VERBATIM_TYPES.has(mediaType);
}

export function classifyPage(mediaType: string, body: Uint8Array): PageKind {
  if (HTML_TYPES.has(mediaType)) return 'html';
  if (mediaType.startsWith('text/') || TEXT_APPLICATION_TYPES.has(mediaType)) return 'text';
  if (/\+(json|xml)$/.test(mediaType)) return 'text';
  if (mediaType !== '' && mediaType !== 'application/octet-stream') return 'binary';
  // No useful type: look at the bytes.
  const head = body.subarray(0, 1024);
  if (head.includes(0)) return 'binary';
  const start = new TextDecoder('utf-8').decode(head).trimStart().slice(0, 64).toLowerCase();
  return start.startsWith('<!doctype html') || start.startsWith('<html') ? 'html' : 'text';
}

/** Decodes the body with the declared charset (header first, then an HTML `<meta>`), else UTF-8. */
export function decodePage(body: Uint8Array, contentType: string | null, kind: PageKind): string {
  const declared = charsetParameter(contentType) ?? (kind === 'html' ? metaCharset(body) : null);
  if (declared) {
    try {
      return new TextDecoder(declared).decode(body);
    } catch {
      // An unknown label: fall through to UTF-8.
    }
  }
  return new TextDecoder('utf-8').decode(body);
}

function charsetParameter(contentType: string | null): string | null {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '');
  return match?.[1] ?? null;
}

function metaCharset(body: Uint8Array): string | null {
  // The charset declaration must be within the first 1024 bytes (HTML spec); ASCII is enough to find it.
  const head = new TextDecoder('latin1').decode(body.subarray(0, 1024));
  const match = /<meta[^>]+charset\s*=\s*["']?([A-Za-z0-9_.:-]+)/i.exec(head);
  return match?.[1] ?? null;
}
