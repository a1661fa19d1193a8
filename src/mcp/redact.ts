import type { McpServerConfig } from './config.js';

/** Values shorter than this are not treated as secrets (they would mask ordinary words). */
const MIN_SECRET_LENGTH = 6;

/** The configured values that may be credentials: header and env values, tokens, URL credentials. */
export function secretsOf(config: McpServerConfig): string[] {
  const values: string[] = [];
  if (config.kind === 'stdio') {
    values.push(...Object.values(config.env));
  } else {
    values.push(...Object.values(config.headers));
    if (config.auth?.type === 'bearer') values.push(config.auth.token);
    try {
      const url = new URL(config.url);
      if (url.password) values.push(url.password, decodeURIComponent(url.password));
      for (const value of url.searchParams.values()) values.push(value);
    } catch {
      // Validated earlier; nothing to add.
    }
  }
  for (const value of [...values]) {
    // `Bearer abc…`: the token alone may show up in a message too.
    const [, token] = /^\s*\S+\s+(\S{6,})\s*$/.exec(value) ?? [];
    if (token) values.push(token);
  }
  return values.filter((value) => value.length >= MIN_SECRET_LENGTH);
}

/** Replaces every occurrence of the given secrets in `text` with `***`. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) out = out.split(secret).join('***');
  return out;
}
