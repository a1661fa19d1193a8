/** One replacement the model asks for. */
export interface TextEdit {
  old: string;
  new: string;
  replace_all: boolean;
}

export interface EditOutcome {
  text: string;
  /** Occurrences of each edit's `old` in the original text (1 at most unless `replace_all`), summed. */
  replacements: number;
}

function countOccurrences(text: string, search: string): number {
  let count = 0;
  for (let at = text.indexOf(search); at !== -1; at = text.indexOf(search, at + search.length)) count++;
  return count;
}

/** Plain-text replacement: no `$&`-style patterns, unlike `String.prototype.replace` with a string. */
function replaceText(text: string, search: string, replacement: string, all: boolean): string {
  if (all) return text.split(search).join(replacement);
  const at = text.indexOf(search);
  return at === -1 ? text : text.slice(0, at) + replacement + text.slice(at + search.length);
}

/**
 * A model writes `\n` line breaks even when the file uses CRLF; when the text as given is absent but
 * its CRLF form is present, edit that form.
 */
function matchLineEndings(text: string, edit: TextEdit): TextEdit {
  if (text.includes(edit.old) || !edit.old.includes('\n') || !text.includes('\r\n')) return edit;
  const toCrlf = (value: string): string => value.replace(/\r?\n/g, '\r\n');
  const old = toCrlf(edit.old);
  return text.includes(old) ? { ...edit, old, new: toCrlf(edit.new) } : edit;
}

/**
 * Applies the edits one after the other, each to the result of the previous one. The replacement
 * count is taken against the original text, as Kimi CLI reports it.
 */
export function applyEdits(original: string, edits: readonly TextEdit[]): EditOutcome {
  let text = original;
  let replacements = 0;
  for (const requested of edits) {
    const edit = matchLineEndings(text, requested);
    const found = countOccurrences(original, edit.old);
    replacements += edit.replace_all ? found : Math.min(found, 1);
    text = replaceText(text, edit.old, edit.new, edit.replace_all);
  }
  return { text, replacements };
}
