/** A page of a searchable line list (raw events, context messages): served by vis, or built in the page of an export. */
export interface LinePage {
  /** Lines in the list. */
  total: number;
  /** Lines that match the search (all of them without one). */
  matches: number;
  offset: number;
  items: { index: number; text: string }[];
}

/** One page of the lines that contain `q` (case-insensitive), in order; one pass over the list. */
export function pageOfLines(
  lines: readonly string[],
  query: { q: string; offset: number; limit: number },
): LinePage {
  const needle = query.q.toLowerCase();
  const items: LinePage['items'] = [];
  let matches = 0;
  for (let index = 0; index < lines.length; index++) {
    const text = lines[index]!;
    if (needle && !text.toLowerCase().includes(needle)) continue;
    if (matches >= query.offset && items.length < query.limit) items.push({ index, text });
    matches++;
  }
  return { total: lines.length, matches, offset: query.offset, items };
}
