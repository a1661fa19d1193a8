import { mkdir, readFile, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../util/atomic-file.js';
import { formatForFile } from './load-config.js';
import { parseConfigText } from './parse-config-text.js';

/** A value `saveConfigKeys` can write: what a top-level setting such as `theme` or `default_thinking` holds. */
export type ConfigKeyValue = string | boolean;

/**
 * Sets a top-level key of a config file (e.g. `theme = "light"`), keeping everything else — comments,
 * order, other keys — as it was. See `saveConfigKeys`.
 */
export async function saveConfigKey(path: string, key: string, value: ConfigKeyValue): Promise<void> {
  await saveConfigKeys(path, { [key]: value });
}

/**
 * Sets top-level keys of a config file in one write (`default_model` and `default_thinking` together),
 * keeping everything else — comments, order, other keys — as it was. A missing file is created. A
 * TOML file is edited as text (each key's line replaced, or a line added at the top, where only
 * top-level keys live) and the result is parsed again: unless it holds the same values with only
 * these keys changed, nothing is written and this throws. The write is atomic (a crash leaves the old
 * file or the new one).
 */
export async function saveConfigKeys(
  path: string,
  values: Readonly<Record<string, ConfigKeyValue>>,
): Promise<void> {
  for (const key of Object.keys(values))
    if (!/^[A-Za-z0-9_-]+$/.test(key)) throw new Error(`not a plain config key: ${key}`);
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });
  const format = formatForFile(path);
  const before = text.trim() ? parseConfigText(text, format) : { ok: true as const, value: {} };
  if (!before.ok || typeof before.value !== 'object' || before.value === null)
    throw new Error(`${path} is not a valid config file; not changed`);
  const old = before.value as Record<string, unknown>;
  const wanted = { ...old, ...values };
  const next =
    format === 'json'
      ? `${JSON.stringify(wanted, null, 2)}\n`
      : Object.entries(values).reduce((t, [key, value]) => editToml(t, key, value), text);
  const after = parseConfigText(next, format);
  const keys = Object.keys(values).join(', ');
  if (!after.ok || canonical(after.value) !== canonical(wanted))
    throw new Error(`could not set ${keys} in ${path} without changing anything else; not changed`);
  await mkdir(dirname(path), { recursive: true });
  // Keep the file's permissions (a config holding an API key is often 0600).
  const mode = await stat(path).then(
    (s) => s.mode & 0o777,
    () => 0o600,
  );
  await writeFileAtomic(path, next, { mode });
}

function editToml(text: string, key: string, value: ConfigKeyValue): string {
  const line = `${key} = ${JSON.stringify(value)}`;
  const lines = text.split('\n');
  const firstTable = lines.findIndex((l) => /^\s*\[/.test(l));
  const topLevel = firstTable === -1 ? lines.length : firstTable;
  const keyLine = new RegExp(`^\\s*${key}\\s*=`);
  const at = lines.slice(0, topLevel).findIndex((l) => keyLine.test(l));
  if (at !== -1) {
    lines[at] = line;
    return lines.join('\n');
  }
  return text ? `${line}\n${text}` : `${line}\n`;
}

/** JSON with keys sorted, so two parses compare equal whatever the order of their keys. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
