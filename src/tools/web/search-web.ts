import { z } from 'zod';
import type { ToolReturnValue } from '../../kosong/index.js';
import { SkipThisTool, toolFactory } from '../../toolset/loading/dependencies.js';
import { loadToolDescription } from '../../toolset/loading/tool-description.js';
import { defineTool, type KimiTool } from '../../toolset/tool-definition.js';
import { ToolResultBuilder } from '../../toolset/tool-result-builder.js';
import { builtOnFirstUse } from '../../util/built-on-first-use.js';
import type { WebServiceConfig, WebServices } from '../runtime.js';
import {
  BodyTooLargeError,
  boundedFetch,
  describeNetworkError,
  type HttpLimits,
  HttpTimeoutError,
} from './bounded-fetch.js';
import { KIMI_TS_USER_AGENT } from './user-agent.js';

/** The reference's search timeouts: 180 s in all, 90 s between reads (the head counts as a read here). */
export const DEFAULT_SEARCH_LIMITS: HttpLimits = {
  headersTimeoutMs: 90_000,
  idleTimeoutMs: 90_000,
  totalTimeoutMs: 180_000,
  maxBodyBytes: 10 * 1024 * 1024,
};

/** How long the service may spend crawling pages, sent with every request as the reference does. */
const SERVICE_TIMEOUT_SECONDS = 30;

/**
 * Built when the tool is made: most sessions configure no search service, and making these at load
 * was part of every start's time to the first model request.
 */
function buildSchemas() {
  const params = z.object({
    query: z.string().describe('What to search for.'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(20)
      .default(5)
      .describe(
        'How many results to return (1-20). The default is usually right: when the results miss, a more specific query helps more than a larger limit.',
      ),
    include_content: z
      .boolean()
      .default(false)
      .describe(
        'Include the text of each result page. This can use a great many tokens; avoid it together with a large limit.',
      ),
  });

  const searchResultSchema = z.looseObject({
    title: z.string().catch(''),
    url: z.string().catch(''),
    snippet: z.string().catch(''),
    content: z.string().nullish().catch(''),
    date: z.string().nullish().catch(''),
    site_name: z.string().nullish().catch(''),
  });
  const searchResponseSchema = z.looseObject({ search_results: z.array(searchResultSchema) });
  return { params, searchResultSchema, searchResponseSchema };
}

type Schemas = ReturnType<typeof buildSchemas>;
const schemas = builtOnFirstUse(buildSchemas);

export interface SearchWebOptions {
  description: string;
  service: WebServiceConfig;
  limits?: Partial<HttpLimits> | undefined;
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}

/** SearchWeb against a configured service (tests pass their own limits). */
export function createSearchWeb(options: SearchWebOptions): KimiTool<z.output<Schemas['params']>> {
  const limits: HttpLimits = { ...DEFAULT_SEARCH_LIMITS, ...options.limits };
  const { service } = options;
  const scrub = (text: string): string => (service.apiKey ? text.split(service.apiKey).join('***') : text);
  return defineTool({
    name: 'SearchWeb',
    description: options.description,
    params: schemas().params,
    effect: 'network',
    effects: ({ query }) => [
      { kind: 'network', url: query, host: hostOf(service.baseUrl), addresses: [], purpose: 'search' },
    ],
    call: async ({ query, limit, include_content }, ctx) => {
      const builder = new ToolResultBuilder({ maxLineLength: null });
      if (!service.baseUrl || !service.apiKey) {
        return builder.error(
          'The search service is not configured. Find the information another way.',
          'Search service not configured',
        );
      }
      let response: Awaited<ReturnType<typeof boundedFetch>>;
      try {
        response = await boundedFetch(
          service.baseUrl,
          {
            method: 'POST',
            headers: {
              'User-Agent': KIMI_TS_USER_AGENT,
              Authorization: `Bearer ${service.apiKey}`,
              'X-Msh-Tool-Call-Id': ctx.toolCall.id,
              'Content-Type': 'application/json',
              Accept: 'application/json',
              ...service.customHeaders,
            },
            body: JSON.stringify({
              text_query: query,
              limit,
              enable_page_crawling: include_content,
              timeout_seconds: SERVICE_TIMEOUT_SECONDS,
            }),
          },
          { limits, signal: ctx.signal, readBody: (status) => status === 200 },
        );
      } catch (error) {
        if (ctx.signal.aborted) throw error;
        return searchFailure(builder, error, scrub);
      }
      if (response.status !== 200) {
        return builder.error(
          `Failed to search. Status: ${response.status}. The search service may be unavailable right now.`,
          'Failed to search',
        );
      }
      let results: z.output<Schemas['searchResultSchema']>[];
      try {
        const parsed = schemas().searchResponseSchema.safeParse(
          JSON.parse(new TextDecoder().decode(response.body)),
        );
        if (!parsed.success) throw new Error(z.prettifyError(parsed.error));
        results = parsed.data.search_results;
      } catch (error) {
        const detail = error instanceof Error ? error.message : String(error);
        return builder.error(
          `Failed to parse search results: ${scrub(detail)}. The search service may be unavailable right now.`,
          'Failed to parse search results',
        );
      }
      if (results.length === 0) return builder.ok('The search returned no results. Try a different query.');
      results.forEach((result, index) => {
        if (index > 0) builder.write('---\n\n');
        builder.write(
          `Title: ${result.title}\nDate: ${result.date ?? ''}\nURL: ${result.url}\nSummary: ${result.snippet}\n\n`,
        );
        if (result.content) builder.write(`${result.content}\n\n`);
      });
      return builder.ok();
    },
  });
}

/** Loaded only when a search service is configured (`[services.moonshot_search]`). */
export const SearchWeb = toolFactory(
  ['webServices'],
  async ({ webServices }: { webServices: WebServices }) => {
    if (!webServices.search) throw new SkipThisTool('no search service is configured');
    return createSearchWeb({
      description: await loadToolDescription(new URL('./search-web.md', import.meta.url)),
      service: webServices.search,
    });
  },
);

function searchFailure(
  builder: ToolResultBuilder,
  error: unknown,
  scrub: (text: string) => string,
): ToolReturnValue {
  if (error instanceof HttpTimeoutError) {
    return builder.error(`Failed to search: ${error.message}. Try again later.`, 'Search timed out');
  }
  if (error instanceof BodyTooLargeError) {
    return builder.error(`Failed to search: ${error.message}.`, 'Response too large');
  }
  return builder.error(
    `Failed to search due to network error: ${scrub(describeNetworkError(error))}. The search service may be unreachable.`,
    'Network error',
  );
}
