import { z } from 'zod';

export const MAX_PAGE = 500;

/** `?offset=&limit=&q=` of the paged, searchable line lists (raw events, context messages). */
export const linePageQuery = z.object({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE).default(200),
  q: z.string().max(500).default(''),
});

export type LinePageQuery = z.output<typeof linePageQuery>;

export interface LinePage {
  /** Lines in the list. */
  total: number;
  /** Lines that match the search (all of them without one). */
  matches: number;
  offset: number;
  items: { index: number; text: string }[];
}

/** One page of the lines that contain `q` (case-insensitive), in order; one pass over the list. */
export function pageOfLines(lines: readonly string[], query: LinePageQuery): LinePage {
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
