import { z } from 'zod';
import { type ToolReturnValue, toolError } from '../../kosong/index.js';
import { classifyAddress, type Effect, type ResolvedAddress, resolveHost } from '../../policy/index.js';
import { declareParameters } from '../../toolset/declared-parameters.js';
import { toolFactory } from '../../toolset/loading/dependencies.js';
import { loadToolDescription } from '../../toolset/loading/tool-description.js';
import { defineTool, type KimiTool, type ToolCallContext } from '../../toolset/tool-definition.js';
import { ToolResultBuilder } from '../../toolset/tool-result-builder.js';
import type { WebServiceConfig, WebServices } from '../runtime.js';
import {
  BodyTooLargeError,
  boundedFetch,
  describeNetworkError,
  type HttpLimits,
  HttpTimeoutError,
  RedirectRefusedError,
} from './bounded-fetch.js';
import { classifyPage, decodePage, isVerbatimType, mediaTypeOf } from './page-content.js';
import { pinnedFetch } from './pinned-fetch.js';
import { addressesToConnect } from './rebinding-check.js';
import { BROWSER_USER_AGENT, KIMI_TS_USER_AGENT } from './user-agent.js';

/**
 * Limits of one fetch. The reference allows 15 s to connect, 60 s between reads and 180 s in total;
 * fetch cannot time the connect step alone, so the head of the response gets 60 s. Bodies stop at
 * 10 MiB: far beyond any page worth reading, small enough that a runaway download cannot exhaust memory.
 */
export const DEFAULT_FETCH_LIMITS: HttpLimits = {
  headersTimeoutMs: 60_000,
  idleTimeoutMs: 60_000,
  totalTimeoutMs: 180_000,
  maxBodyBytes: 10 * 1024 * 1024,
};

const params = declareParameters('FetchURL', () =>
  z.object({
    url: z.string().describe('The URL to fetch (http or https).'),
  }),
);

export interface FetchURLOptions {
  description: string;
  webServices: WebServices;
  limits?: Partial<HttpLimits> | undefined;
  /** How hosts are resolved, for the policy and then the connection (tests inject a hostile DNS). */
  resolveHost?: ((host: string) => Promise<ResolvedAddress[]>) | undefined;
}

/** FetchURL with explicit limits (tests shrink them); the agent spec loads `FetchURL` below. */
export function createFetchURL(
  options: FetchURLOptions,
): KimiTool<z.output<ReturnType<typeof params.schema>>> {
  const limits: HttpLimits = { ...DEFAULT_FETCH_LIMITS, ...options.limits };
  const service = options.webServices.fetch;
  const resolve = options.resolveHost ?? resolveHost;
  /** What each call's host resolved to when the policy judged it (same params object as `call`). */
  const judged = new WeakMap<object, ResolvedAddress[]>();
  return defineTool({
    name: 'FetchURL',
    description: options.description,
    params,
    // Kimi CLI never asks before fetching; kimi-ts's policy asks per host, and always for private
    // addresses, because a URL can carry whatever the model read out of the machine.
    effect: 'network',
    effects: async (params): Promise<Effect[]> => {
      const { url } = params;
      const target = parseHttpUrl(url);
      if (typeof target !== 'string') return [];
      const host = new URL(target).hostname;
      let addresses: ResolvedAddress[] = [];
      try {
        addresses = await resolve(host);
      } catch {
        // Unresolvable: the fetch will fail too; the policy still asks for the host by name.
      }
      judged.set(params, addresses);
      return [{ kind: 'network', url: target, host, addresses, purpose: 'fetch' }];
    },
    call: async (params, ctx) => {
      const target = parseHttpUrl(params.url);
      if (typeof target !== 'string') return target;
      if (service) {
        const viaService = await fetchViaService(service, target, ctx, limits);
        if (viaService) return viaService;
        // Any failure of the service falls back to fetching the page ourselves.
      }
      const host = new URL(target).hostname;
      const addresses = await addressesToConnect(host, judged.get(params), resolve);
      if (!Array.isArray(addresses)) return addresses as ToolReturnValue;
      return fetchDirectly(target, ctx, limits, { host, addresses, resolve });
    },
  });
}

export const FetchURL = toolFactory(['webServices'], async ({ webServices }) =>
  createFetchURL({
    description: await loadToolDescription(new URL('./fetch-url.md', import.meta.url)),
    webServices,
  }),
);

function parseHttpUrl(url: string): string | ToolReturnValue {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return toolError(
      `\`${url}\` is not a valid URL. Give a full address such as https://example.com/page.`,
      'Invalid URL',
    );
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return toolError(
      `Only http and https URLs can be fetched, not \`${parsed.protocol}\`.`,
      'Unsupported URL scheme',
    );
  }
  return parsed.href;
}

/** The fetch service's Markdown for the page, or null when the service failed in any way. */
async function fetchViaService(
  service: WebServiceConfig,
  url: string,
  ctx: ToolCallContext,
  limits: HttpLimits,
): Promise<ToolReturnValue | null> {
  try {
    const response = await boundedFetch(
      service.baseUrl,
      {
        method: 'POST',
        headers: {
          'User-Agent': KIMI_TS_USER_AGENT,
          Authorization: `Bearer ${service.apiKey}`,
          Accept: 'text/markdown',
          'Content-Type': 'application/json',
          'X-Msh-Tool-Call-Id': ctx.toolCall.id,
          ...service.customHeaders,
        },
        body: JSON.stringify({ url }),
      },
      { limits, signal: ctx.signal, readBody: (status) => status === 200 },
    );
    if (response.status !== 200) return null;
    const content = new TextDecoder('utf-8').decode(response.body);
    if (!content.trim()) return null;
    const builder = new ToolResultBuilder({ maxLineLength: null });
    builder.write(content);
    return builder.ok(
      'The returned content is the main content of the page, extracted by the fetch service.',
    );
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    return null;
  }
}

/** Where the direct fetch may connect: the approved host's checked addresses, and how to check others. */
interface ConnectPlan {
  host: string;
  addresses: readonly ResolvedAddress[];
  resolve: (host: string) => Promise<ResolvedAddress[]>;
}

async function fetchDirectly(
  url: string,
  ctx: ToolCallContext,
  limits: HttpLimits,
  plan: ConnectPlan,
): Promise<ToolReturnValue> {
  const builder = new ToolResultBuilder({ maxLineLength: null });
  // Every host the request may go to, with the addresses its check saw: the connection goes there.
  const checked = new Map<string, readonly ResolvedAddress[]>([[bareHost(plan.host), plan.addresses]]);
  let response: Awaited<ReturnType<typeof boundedFetch>>;
  try {
    response = await boundedFetch(
      url,
      {
        method: 'GET',
        headers: {
          'User-Agent': BROWSER_USER_AGENT,
          Accept: 'text/html,application/xhtml+xml,text/markdown,text/plain;q=0.9,*/*;q=0.8',
        },
      },
      {
        limits,
        signal: ctx.signal,
        readBody: (status) => status < 400,
        allowRedirect: redirectGuard(url, checked, plan.resolve),
        fetch: pinnedFetch((host) => checked.get(host)),
      },
    );
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    return fetchFailure(builder, error);
  }

  if (response.status >= 400) {
    return builder.error(
      `Failed to fetch URL. Status: ${response.status}. The page may not be accessible, or the server may be down.`,
      `HTTP ${response.status} error`,
    );
  }
  if (response.body.byteLength === 0) {
    return builder.ok('The response body is empty.', 'Empty response body');
  }

  const contentType = response.headers.get('content-type');
  const mediaType = mediaTypeOf(contentType);
  const kind = classifyPage(mediaType, response.body);
  if (kind === 'binary') {
    return builder.error(
      `The URL returned \`${mediaType}\` content, which is not text. FetchURL reads web pages and text files only.`,
      'Not a text page',
    );
  }
  const text = decodePage(response.body, contentType, kind);
  if (kind === 'text') {
    builder.write(text);
    return builder.ok(
      isVerbatimType(mediaType)
        ? 'The returned content is the full content of the page.'
        : `The returned content is the full ${mediaType || 'text'} response.`,
    );
  }

  // The HTML stack (linkedom, Readability, turndown) loads on first use, not at startup.
  const { htmlToReadableMarkdown } = await import('./readable-markdown.js');
  const page = htmlToReadableMarkdown(text, response.url);
  if (!page) {
    return builder.error(
      'Failed to extract meaningful content from the page. It may not hold readable text, or it may need JavaScript to render its content.',
      'No content extracted',
    );
  }
  const header = [
    page.title && `Title: ${page.title}`,
    page.byline && `Author: ${page.byline}`,
    page.publishedTime && `Published: ${page.publishedTime}`,
    `URL: ${response.url}`,
  ].filter(Boolean);
  builder.write(`${header.join('\n')}\n\n${page.markdown}\n`);
  return builder.ok(
    page.source === 'article'
      ? 'The returned content is the main content of the page, converted to Markdown.'
      : 'No main article was found on the page, so the returned content is the whole page converted to Markdown.',
  );
}

/**
 * The policy approved the first URL's host. A redirect may stay on that host, or go to another
 * host only if it resolves to public addresses: a page cannot bounce the request into this
 * machine or a private network.
 */
function redirectGuard(
  url: string,
  checked: Map<string, readonly ResolvedAddress[]>,
  resolve: (host: string) => Promise<ResolvedAddress[]>,
): (to: URL) => Promise<boolean> {
  const approvedHost = new URL(url).hostname;
  return async (to) => {
    if (to.protocol !== 'http:' && to.protocol !== 'https:') return false;
    if (to.hostname === approvedHost) return true;
    try {
      const addresses = await resolve(bareHost(to.hostname));
      const allowed = addresses.length > 0 && addresses.every((a) => classifyAddress(a.address) === 'public');
      // The redirect's connection goes to exactly the addresses judged here.
      if (allowed) checked.set(bareHost(to.hostname), addresses);
      return allowed;
    } catch {
      return false;
    }
  };
}

function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

function fetchFailure(builder: ToolResultBuilder, error: unknown): ToolReturnValue {
  if (error instanceof RedirectRefusedError) {
    return builder.error(
      `Failed to fetch URL: ${error.message}. A redirect to another host is followed only when that host is on the public internet; fetch that URL directly if you need it (it will be asked about).`,
      'Redirect refused',
    );
  }
  if (error instanceof HttpTimeoutError) {
    return builder.error(
      `Failed to fetch URL: ${error.message}. The server may be slow or unreachable; try again later or another source.`,
      'Timed out',
    );
  }
  if (error instanceof BodyTooLargeError) {
    return builder.error(
      `Failed to fetch URL: ${error.message}, the most FetchURL reads. Look for a smaller page or a text version.`,
      'Response too large',
    );
  }
  return builder.error(
    `Failed to fetch URL due to network error: ${describeNetworkError(error)}. The URL may be invalid or the server unreachable.`,
    'Network error',
  );
}
