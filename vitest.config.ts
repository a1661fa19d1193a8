import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The web page's components (src/ui/web/page/) are Preact; their unit tests render them.
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // On CI (one clean clone, 2 cores, three runs of the end-to-end suite) a test that fails is run
    // once more; one that passes the second time is still listed as FLAKY, with its first error, at
    // the end of \`.ci/run\`'s output, to be fixed. Locally a failure is a failure.
    retry: process.env.CI ? 1 : 0,
  },
});
