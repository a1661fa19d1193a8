/**
 * Parses a tool call's argument string. Missing or blank arguments mean `{}`. Like Python's
 * `json.loads(strict=False)`, raw control characters (a literal newline or tab) inside strings are
 * accepted, since models emit them in long commands.
 */
export function parseToolArguments(
  raw: string | null | undefined,
): { ok: true; value: unknown } | { ok: false; error: string } {
  if (raw == null || raw.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(raw) };
  } catch (error) {
    const escaped = escapeControlCharactersInStrings(raw);
    if (escaped !== raw) {
      try {
        return { ok: true, value: JSON.parse(escaped) };
      } catch {
        // fall through to report the original error
      }
    }
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

function escapeControlCharactersInStrings(text: string): string {
  let out = '';
  let inString = false;
  let escaping = false;
  for (const char of text) {
    if (inString) {
      if (escaping) escaping = false;
      else if (char === '\\') escaping = true;
      else if (char === '"') inString = false;
      else if (char < ' ') {
        out += `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
        continue;
      }
    } else if (char === '"') {
      inString = true;
    }
    out += char;
  }
  return out;
}
