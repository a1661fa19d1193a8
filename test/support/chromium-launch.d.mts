/** The browser binary; `KIMI_TS_CHROMIUM` points elsewhere. */
export declare const CHROMIUM_PATH: string;
/** Headless, no sandbox (the machines run as root), nothing fetched by the browser itself. */
export declare const CHROMIUM_ARGS: readonly string[];
