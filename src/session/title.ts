/** Longest automatic title, in characters (Kimi CLI's limit). */
export const TITLE_MAX_CHARS = 50;
export const UNTITLED = 'Untitled';

/**
 * Shortens text to at most `width` characters for a one-line title: whitespace runs become one
 * space, and a cut ends with `…`, at a word boundary when there is one. Counts code points, so CJK
 * text and emoji are never split in half.
 */
export function shortenTitle(text: string, width = TITLE_MAX_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = Array.from(flat);
  if (chars.length <= width) return flat;
  const kept = chars.slice(0, width - 1).join('');
  const lastSpace = kept.lastIndexOf(' ');
  // Cut at the last word boundary unless that throws away most of the room (long words, CJK).
  const cut = lastSpace >= kept.length / 2 ? kept.slice(0, lastSpace) : kept;
  return `${cut.trimEnd()}…`;
}
