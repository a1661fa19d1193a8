import type { LoadedSession } from '../model/read-session.js';
import { pagePolicy } from './page-file.js';

/** Longest raw line kept in an exported file; longer ones are cut (the file is for a bug report). */
const MAX_EXPORTED_LINE = 4000;

/** What an exported page carries instead of asking a server. */
export interface EmbeddedSession {
  model: LoadedSession['model'];
  events: string[];
  context: string[];
}

/**
 * JSON that is safe inside `<script type="application/json">`: no `<`, `>` or `&` appear literally,
 * so a `</script>` (or `<!--`) in a model's text cannot end the element, and U+2028/2029 are escaped.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** One self-contained HTML file: the page with the session embedded; opens from file:// alone. */
export function exportHtml(pageHtml: string, session: LoadedSession): string {
  const cut = (line: string) =>
    line.length <= MAX_EXPORTED_LINE ? line : `${line.slice(0, MAX_EXPORTED_LINE)}… [cut for the export]`;
  const embedded: EmbeddedSession = {
    model: session.model,
    events: session.events.map(cut),
    context: session.context.map(cut),
  };
  const policy = pagePolicy(pageHtml, { connect: false });
  const head =
    `<meta http-equiv="Content-Security-Policy" content="${policy.replace(/"/g, '&quot;')}">` +
    `<script type="application/json" id="vis-data">${jsonForScript(embedded)}</script>`;
  const at = pageHtml.indexOf('</head>');
  if (at < 0) throw new Error('The vis page has no </head>.');
  return pageHtml.slice(0, at) + head + pageHtml.slice(at);
}
