/**
 * Which link targets from model text may become a clickable link: web and mail addresses only.
 * `javascript:`, `data:`, `vbscript:` and anything else (relative paths included, which would resolve
 * against the server and carry its origin) are shown as text. The URL parser sees the scheme as the
 * browser will, so obfuscations like `JaVaScRiPt:`, a leading space or an embedded tab cannot hide it.
 */
const ALLOWED_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

export function safeLinkHref(href: string): string | null {
  let url: URL;
  try {
    // No base: a relative reference throws, so only absolute URLs pass.
    url = new URL(href);
  } catch {
    return null;
  }
  return ALLOWED_PROTOCOLS.has(url.protocol) ? url.href : null;
}
