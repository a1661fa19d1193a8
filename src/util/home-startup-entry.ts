/**
 * `bin` at the top of the home, which many a `.profile` puts on PATH: kept read-only with the dot
 * entries when a workspace holds the home (src/policy/sandbox-home.ts).
 */
const READ_ONLY_HOME_NAMES: ReadonlySet<string> = new Set(['bin']);

/**
 * Whether `name`, an entry at the top of the home, is one of the person's startup files or folders
 * (`.bashrc`, `.config`, `.local`, … and `bin`): what runs later, outside any sandbox.
 */
export function isHomeStartupEntry(name: string): boolean {
  return name.startsWith('.') || READ_ONLY_HOME_NAMES.has(name);
}
