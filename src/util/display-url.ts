/** A URL as it may be shown: without user info or query (either can hold a credential). */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    parsed.search = '';
    return parsed.href.replace(/\/$/, url.endsWith('/') ? '/' : '');
  } catch {
    return '(not a URL)';
  }
}
