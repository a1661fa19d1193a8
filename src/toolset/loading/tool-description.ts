import { readFileSync } from 'node:fs';

const PLACEHOLDER = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Fills `${NAME}` placeholders from `vars`. A placeholder with no value is kept literally, so a
 * description can show `${...}` syntax (shell examples) without escaping; `$NAME` without braces is
 * never touched.
 */
export function fillPlaceholders(
  template: string,
  vars: Readonly<Record<string, string | undefined>>,
): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => vars[name] ?? whole);
}

/**
 * Reads a tool's model-facing description from its `.md` file (usually
 * `new URL('./shell.md', import.meta.url)`) and fills its placeholders. The file is read in place:
 * these are the package's own small files, and some twenty reads through the thread pool at start
 * cost about 2 ms more CPU (hand-offs, promises) than reading them directly, before the first model
 * request. The promise stays, so a caller need not know.
 */
export async function loadToolDescription(
  file: string | URL,
  vars: Readonly<Record<string, string | undefined>> = {},
): Promise<string> {
  return loadToolDescriptionSync(file, vars);
}

export function loadToolDescriptionSync(
  file: string | URL,
  vars: Readonly<Record<string, string | undefined>> = {},
): string {
  return fillPlaceholders(readFileSync(file, 'utf8'), vars).trim();
}
