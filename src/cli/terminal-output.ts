import { sanitizeForTerminal, type TerminalSafe } from '../util/sanitize-terminal.js';

/**
 * The command line's notices on standard error, which is usually a terminal: only safe text
 * (src/util/sanitize-terminal.ts), since they carry names and messages from elsewhere (an MCP
 * server's name and error, a tool's, a config file's).
 */
export function writeStderr(text: TerminalSafe): void {
  process.stderr.write(text);
}

/** The command line's listings on standard output (session titles are a stranger's text too). */
export function writeStdout(text: TerminalSafe): void {
  process.stdout.write(text);
}

/**
 * A document for standard output (an exported session's Markdown): to a terminal only as safe text;
 * to a pipe or a file as it is, byte for byte, since a program reads it, not a terminal.
 */
export function writeDocument(text: string): void {
  if (process.stdout.isTTY) writeStdout(sanitizeForTerminal(text));
  else process.stdout.write(text);
}
