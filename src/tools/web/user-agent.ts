import { VERSION } from '../../version.js';

/** How kimi-ts names itself to the search and fetch services. */
export const KIMI_TS_USER_AGENT = `kimi-ts/${VERSION}`;

/**
 * What a local page fetch sends: many sites refuse or strip pages for clients that do not look like
 * a desktop browser.
 */
export const BROWSER_USER_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
