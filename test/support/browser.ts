import { copyFile, mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium-launch.mjs';

/** Debian's Chromium (`apt-get install chromium`), driven by playwright-core: no browser download. */
export { CHROMIUM_PATH };

/** Where tests put screenshots and other artefacts (git-ignored). */
export const ARTIFACTS_DIR = resolve(import.meta.dirname, '../../test-artifacts');

/** Screenshots for readers; written only when `KIMI_TS_DOCS_SCREENSHOTS=1` (they are committed). */
const DOCS_DIR = resolve(import.meta.dirname, '../../docs');

/** A page with everything it logged that a test may want to assert on. */
export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  /** console.error messages and uncaught exceptions, in order. */
  readonly errors: string[];
  /** Every alert/confirm/prompt that opened (each is dismissed at once). */
  readonly dialogs: string[];
  /**
   * Saves a screenshot to the artefacts folder and returns its path; with `docs`, also to
   * `docs/<docs>` when KIMI_TS_DOCS_SCREENSHOTS=1.
   */
  screenshot(name: string, options?: { docs?: string }): Promise<string>;
}

/** One Chromium per test file: `const browser = await launchBrowser()` in beforeAll, `close()` in afterAll. */
export interface TestBrowser {
  browser: Browser;
  newPage(options?: { width?: number; height?: number }): Promise<WatchedPage>;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<TestBrowser> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
  const contexts: BrowserContext[] = [];
  return {
    browser,
    async newPage(options = {}) {
      const context = await browser.newContext({
        viewport: { width: options.width ?? 1100, height: options.height ?? 800 },
      });
      contexts.push(context);
      const page = await context.newPage();
      const errors: string[] = [];
      const dialogs: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
      page.on('dialog', (dialog) => {
        dialogs.push(`${dialog.type()}: ${dialog.message()}`);
        void dialog.dismiss();
      });
      return {
        page,
        context,
        errors,
        dialogs,
        async screenshot(name, options = {}) {
          await mkdir(ARTIFACTS_DIR, { recursive: true });
          const path = join(ARTIFACTS_DIR, `${name}.png`);
          await page.screenshot({ path, fullPage: false });
          if (options.docs && process.env.KIMI_TS_DOCS_SCREENSHOTS === '1') {
            await mkdir(DOCS_DIR, { recursive: true });
            await copyFile(path, join(DOCS_DIR, options.docs));
          }
          return path;
        },
      };
    },
    async close() {
      for (const context of contexts) await context.close().catch(() => {});
      await browser.close();
    },
  };
}

/**
 * The test file's Chromium: launched before its tests, closed after them. Call at the top of a test
 * file (`const browser = useBrowser();`); `browser.newPage()` inside a test.
 */
export function useBrowser(): Pick<TestBrowser, 'newPage'> & { readonly browser: Browser } {
  let launched: TestBrowser | undefined;
  beforeAll(async () => {
    launched = await launchBrowser();
  });
  afterAll(async () => {
    await launched?.close();
  });
  const current = (): TestBrowser => {
    if (!launched)
      throw new Error('useBrowser(): the browser is not launched (call it at the top of the file)');
    return launched;
  };
  return {
    newPage: (options) => current().newPage(options),
    get browser() {
      return current().browser;
    },
  };
}
