import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

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
 * `new URL('./shell.md', import.meta.url)`) and fills its placeholders.
 */
export async function loadToolDescription(
  file: string | URL,
  vars: Readonly<Record<string, string | undefined>> = {},
): Promise<string> {
  return fillPlaceholders(await readFile(file, 'utf8'), vars).trim();
}

export function loadToolDescriptionSync(
  file: string | URL,
  vars: Readonly<Record<string, string | undefined>> = {},
): string {
  return fillPlaceholders(readFileSync(file, 'utf8'), vars).trim();
}
