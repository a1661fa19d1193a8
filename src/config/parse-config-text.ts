import { parse as parseToml, TomlError } from 'smol-toml';
import type { ConfigProblem } from './config-error.js';

export type ConfigFormat = 'toml' | 'json';

export type ParsedText = { ok: true; value: unknown } | { ok: false; problem: ConfigProblem };

/**
 * Parses config text. Syntax errors give a line and column but never the offending text: both
 * parsers quote the source line in their own messages, and that line may hold an API key.
 */
export function parseConfigText(text: string, format: ConfigFormat): ParsedText {
  return format === 'json' ? parseJsonText(text) : parseTomlText(text);
}

function parseTomlText(text: string): ParsedText {
  try {
    return { ok: true, value: parseToml(text) };
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    // smol-toml's message is "Invalid TOML document: <reason>\n\n<quoted source>"; keep the reason.
    const firstLine = error.message.split('\n', 1)[0] ?? '';
    const reason = firstLine.replace(/^Invalid TOML document:\s*/, '') || 'syntax error';
    return {
      ok: false,
      problem: {
        keyPath: '',
        problem: `not valid TOML at line ${error.line}, column ${error.column}: ${reason}`,
      },
    };
  }
}

function parseJsonText(text: string): ParsedText {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    return {
      ok: false,
      problem: { keyPath: '', problem: `not valid JSON${jsonErrorLocation(text, error.message)}` },
    };
  }
}

/** V8 reports either "at position N" or nothing useful (plus a quote of the input, which we drop). */
function jsonErrorLocation(text: string, message: string): string {
  if (/Unexpected end of JSON input/.test(message)) return ': it ends too early';
  const position = /at position (\d+)/.exec(message);
  if (!position) return '';
  const offset = Number(position[1]);
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return ` at line ${line}, column ${column}`;
}
