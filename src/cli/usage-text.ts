/** How a usage error reads (exit 2), as Kimi CLI's do: the usage line, a hint to `--help`, the error. */
export function usageErrorText(message: string): string {
  return `Usage: kimi-ts [options] [command] [prompt...]\nTry 'kimi-ts --help' for help.\n\nError: ${message}\n`;
}

/** The exit code of a usage error (a bad flag, a mistyped command, an unknown session id). */
export const USAGE_EXIT_CODE = 2;
