import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

/**
 * The vis page, built by Vite into one self-contained HTML file, dist/vis/vis.html: its script and
 * style are inlined, so the server serves one file (with a hash-based Content-Security-Policy) and
 * `kimi-ts vis --export` writes one that opens from file://.
 */
const root = fileURLToPath(new URL('./src/ui/vis/page/', import.meta.url));

/** Moves the built chunks into the HTML and drops them from the output. */
function inlineIntoHtml(): Plugin {
  return {
    name: 'kimi-ts-vis-inline',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const html = Object.values(bundle).find((item) => item.fileName.endsWith('.html'));
      if (html?.type !== 'asset') return;
      let text = String(html.source);
      for (const [name, item] of Object.entries(bundle)) {
        if (item.type === 'chunk') {
          // `</script` inside the code would end the element early; `<\/script` means the same in JS.
          const code = item.code.replace(/<\/script/gi, '<\\/script');
          const tag = new RegExp(`<script[^>]*src="[./]*${escapeRegExp(item.fileName)}"[^>]*></script>`);
          text = text.replace(tag, () => `<script type="module">${code}</script>`);
          delete bundle[name];
        } else if (item.fileName.endsWith('.css')) {
          const tag = new RegExp(`<link[^>]*href="[./]*${escapeRegExp(item.fileName)}"[^>]*>`);
          text = text.replace(tag, () => `<style>${String(item.source)}</style>`);
          delete bundle[name];
        }
      }
      html.source = text;
      html.fileName = 'vis.html';
    },
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export default defineConfig({
  root,
  base: './',
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('./dist/vis/', import.meta.url)),
    emptyOutDir: true,
    modulePreload: false,
    assetsInlineLimit: 100_000,
    cssCodeSplit: false,
    target: 'es2022',
  },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  plugins: [inlineIntoHtml()],
});
