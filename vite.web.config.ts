import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * Builds the page of `kimi-ts web` (src/ui/web/page/, Preact) into static files in dist/web/, which
 * the web server serves and the npm package ships. JSX goes through Vite's own oxc transform.
 */
export default defineConfig({
  root: fileURLToPath(new URL('./src/ui/web/page/', import.meta.url)),
  base: './',
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('./dist/web/', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
  },
});
