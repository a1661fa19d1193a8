import type OpenAI from 'openai';
import { VERSION } from 'openai/version';
import { ChatProviderError } from '../../errors.js';
import { errorBodyFetch } from '../error-body-fetch.js';
import { DEFAULT_TIMEOUT_MS, type ProviderOptions } from '../options.js';
import { ChatConnections } from './chat-http.js';

// Control characters make fetch reject the whole request; a header pasted from a terminal may carry one.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const ILLEGAL_HEADER_CHARS = /[\u0000-\u0008\u000a-\u001f\u007f]/g;

/** Where and how a Chat Completions request goes: the same for every request of a client. */
export interface ChatEndpoint {
  url: string;
  /** Lower-case names: auth, then the configured custom headers over it. */
  headers: Record<string, string>;
  timeoutMs: number;
}

/**
 * The connections of a provider and of every copy made from it by `withThinking`, so that rebuilding
 * them after a connection failure (seed 002 §7.3) heals all of them. Chat requests go out on Node's
 * HTTP client (chat-http.ts); the SDK client is made only for the files API (Kimi's video upload).
 */
export class ClientHolder {
  private connections: ChatConnections;
  private sdkClient: OpenAI | null = null;
  readonly endpoint: ChatEndpoint;

  constructor(
    private readonly options: ProviderOptions,
    private readonly defaultBaseUrl: string,
    readonly providerName: string,
  ) {
    const { apiKey, customHeaders, timeoutMs } = options;
    // Local OpenAI-compatible servers (llama.cpp, Ollama, vLLM) usually need no key; hosted APIs do.
    if (!apiKey && providerName !== 'openai_legacy') {
      throw new ChatProviderError(`No API key is configured for the ${providerName} provider.`);
    }
    this.connections = new ChatConnections();
    this.endpoint = {
      url: endpointUrl(this.baseUrl, '/chat/completions'),
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        'user-agent': `OpenAI/JS ${VERSION}`,
        authorization: `Bearer ${apiKey || 'no-key'}`,
        ...lowerCaseNames(sanitizeHeaders(customHeaders)),
      },
      timeoutMs: timeoutMs ?? DEFAULT_TIMEOUT_MS,
    };
  }

  /** The keep-alive connections chat requests use now. */
  get chatConnections(): ChatConnections {
    return this.connections;
  }

  /**
   * The SDK client (files API), made when first asked for. Its module loads then too: the SDK's main
   * module is ~170 modules (every API it covers), a millisecond or two of each start that a chat
   * request over node:http never needs.
   */
  async client(): Promise<OpenAI> {
    const { default: OpenAISdk } = await import('openai');
    this.sdkClient ??= this.build(OpenAISdk);
    return this.sdkClient;
  }

  /** Drops the old connections (idle ones closed) and the SDK client; new ones from here on. */
  rebuild(): void {
    this.connections.closeIdle();
    this.connections = new ChatConnections();
    this.sdkClient = null;
  }

  private get baseUrl(): string {
    return this.options.baseUrl || this.defaultBaseUrl;
  }

  private build(OpenAISdk: typeof OpenAI): OpenAI {
    const { apiKey, customHeaders, timeoutMs } = this.options;
    return new OpenAISdk({
      apiKey: apiKey || 'no-key',
      baseURL: this.baseUrl,
      // Everything explicit, so stray OPENAI_* variables of the environment do not leak in.
      organization: null,
      project: null,
      webhookSecret: null,
      // The soul owns retries (seed 002 §7); a second layer here would multiply them.
      maxRetries: 0,
      timeout: timeoutMs ?? DEFAULT_TIMEOUT_MS,
      defaultHeaders: sanitizeHeaders(customHeaders),
      logLevel: 'off',
      fetch: errorBodyFetch,
    });
  }
}

/** The base URL and the path joined as the SDK joins them (one slash between). */
function endpointUrl(baseUrl: string, path: string): string {
  return baseUrl.endsWith('/') ? baseUrl + path.slice(1) : baseUrl + path;
}

function lowerCaseNames(headers: Record<string, string> | undefined): Record<string, string> {
  if (!headers) return {};
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

function sanitizeHeaders(headers: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!headers) return undefined;
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, value.replace(ILLEGAL_HEADER_CHARS, '').trim()]),
  );
}
