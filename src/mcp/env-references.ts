const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Expands `${VAR}` and `${VAR:-default}` as Claude Code's `.mcp.json` files use them, so such a file
 * works unchanged. A reference to an unset variable without a default is left as written, so the
 * server's own error shows what was missing.
 */
export function expandEnvReferences(
  value: string,
  env: Readonly<Record<string, string | undefined>>,
): string {
  return value.replace(REFERENCE, (whole, name: string, fallback: string | undefined) => {
    const set = env[name];
    if (set !== undefined && set !== '') return set;
    return fallback ?? whole;
  });
}
