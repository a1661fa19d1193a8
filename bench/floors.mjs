// The floors under the time to the first model request (soul.bench.mjs, startup.bench.mjs): scripts
// that make the same request with as little as possible around it, each posting to BENCH_BASE_URL.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Node's own fetch, one POST, in a process doing nothing else. On Node 20 the first use of `Headers`
 * or `fetch` loads the bundled undici and the ~90 built-in modules it needs, and the first request
 * runs its whole HTTP stack cold; every provider SDK pays this. Returns the script's path.
 */
export function writeFetchAlone(dir) {
  const file = join(dir, 'fetch-alone.cjs');
  writeFileSync(
    file,
    "fetch(process.env.BENCH_BASE_URL + '/chat/completions', { method: 'POST', body: '{}' }).catch(() => {});\n",
  );
  return file;
}

/** The official openai SDK alone, bundled as the CLI is, making one streaming request. Returns its path. */
export async function buildSdkAlone(dir) {
  const { build } = await import('esbuild');
  const outfile = join(dir, 'sdk-alone.cjs');
  await build({
    stdin: {
      contents: `const OpenAI = require('openai').default;
new OpenAI({ baseURL: process.env.BENCH_BASE_URL, apiKey: 'k', maxRetries: 0 }).chat.completions
  .create({ model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: true })
  .catch(() => {});`,
      resolveDir: root,
    },
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    logLevel: 'warning',
  });
  return outfile;
}
