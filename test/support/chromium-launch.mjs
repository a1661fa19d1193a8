// How the tests and the benchmarks start Debian's Chromium (`apt-get install chromium`) through
// playwright-core: one place for the binary and its flags (no browser download, no network of its own).

/** The browser binary; `KIMI_TS_CHROMIUM` points elsewhere. */
export const CHROMIUM_PATH = process.env.KIMI_TS_CHROMIUM || '/usr/bin/chromium';

/** Headless, no sandbox (the machines run as root), nothing fetched by the browser itself. */
export const CHROMIUM_ARGS = Object.freeze([
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]);
