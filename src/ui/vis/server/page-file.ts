import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/** The built page: one HTML file with its script and style inlined (vite.vis.config.ts makes it). */
const PAGE_FILE = fileURLToPath(new URL('../../../vis/vis.html', import.meta.url));

export class PageMissingError extends Error {
  override name = 'PageMissingError';
}

export async function readPageHtml(): Promise<string> {
  try {
    return await readFile(PAGE_FILE, 'utf8');
  } catch {
    throw new PageMissingError(`The vis page is not built (${PAGE_FILE} is missing): run \`npm run build\`.`);
  }
}

/** `'sha256-…'` sources for each executable inline script of the page (for its Content-Security-Policy). */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script(?![^>]*application\/json)[^>]*>([\s\S]*?)<\/script>/g)) {
    hashes.push(`'sha256-${createHash('sha256').update(match[1]!, 'utf8').digest('base64')}'`);
  }
  return hashes;
}

/** The policy of the page: its own scripts only, inline style, and requests to its own server. */
export function pagePolicy(html: string, options: { connect: boolean }): string {
  return [
    "default-src 'none'",
    `script-src ${inlineScriptHashes(html).join(' ') || "'none'"}`,
    "style-src 'unsafe-inline'",
    'img-src data:',
    options.connect ? "connect-src 'self'" : "connect-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}
