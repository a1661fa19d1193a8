/**
 * The access token of `kimi-ts web`. The server prints (and opens) a URL carrying it; the page takes it
 * from the address, keeps it in sessionStorage (this tab only, gone when the tab closes) and removes it
 * from the address bar and history, so it is not left in a screenshot, a bookmark or a copied link.
 */
const STORAGE_KEY = 'kimi-ts-web-token';
const PARAM = 'token';

export function takeToken(location: Location, history: History, storage: Storage | null): string | null {
  const url = new URL(location.href);
  const hash = new URLSearchParams(url.hash.replace(/^#/, ''));
  const fromUrl = url.searchParams.get(PARAM) ?? hash.get(PARAM);
  if (fromUrl !== null) {
    url.searchParams.delete(PARAM);
    hash.delete(PARAM);
    const rest = hash.toString();
    url.hash = rest ? `#${rest}` : '';
    history.replaceState(history.state, '', url.pathname + url.search + url.hash);
    try {
      storage?.setItem(STORAGE_KEY, fromUrl);
    } catch {
      // Storage may be disabled: the token then lives in memory for this page only.
    }
    return fromUrl;
  }
  try {
    return storage?.getItem(STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
}
