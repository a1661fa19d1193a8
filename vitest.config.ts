import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The web page's components (src/ui/web/page/) are Preact; their unit tests render them.
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
