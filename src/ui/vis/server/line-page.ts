import { z } from 'zod';

export const MAX_PAGE = 500;

/** `?offset=&limit=&q=` of the paged, searchable line lists (raw events, context messages). */
export const linePageQuery = z.object({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE).default(200),
  q: z.string().max(500).default(''),
});

export type LinePageQuery = z.output<typeof linePageQuery>;

export { type LinePage, pageOfLines } from '../model/line-page.js';
