import Anthropic from '@anthropic-ai/sdk';
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type { ThinkingEffort } from '../../message.js';
import type { ChatProvider, GenerateRequest, StreamedMessage } from '../../provider.js';
import { DEFAULT_TIMEOUT_MS, type ProviderOptions } from '../options.js';
import { sameOriginFetch } from '../same-origin-fetch.js';
import { toChatProviderError } from './error-conversion.js';
import { withBodyIdleTimeout } from './idle-timeout-fetch.js';
import { buildRequestBody } from './request-body.js';
import { AnthropicStreamedMessage } from './streamed-message.js';

/**
 * A `ChatProvider` for the Anthropic Messages API (and servers that speak it), on the official SDK.
 *
 * The SDK never retries (the soul owns retries and backoff) and never logs (its debug output
 * would carry request details into the terminal). `timeoutMs` bounds both the wait for the
 * response headers and every silence in the event stream after them.
 */
export class AnthropicProvider implements ChatProvider {
  readonly name = 'anthropic';
  private client: Anthropic;

  constructor(private readonly options: ProviderOptions) {
    this.client = createClient(options);
  }

  get modelName(): string {
    return this.options.model;
  }

  get thinkingEffort(): ThinkingEffort | null {
    return this.options.thinkingEffort ?? null;
  }

  async generate(request: GenerateRequest): Promise<StreamedMessage> {
    const { signal } = request;
    signal?.throwIfAborted();
    const body = buildRequestBody(this.options, request.systemPrompt, request.tools, request.history);
    const secret = this.options.apiKey;
    let events: AsyncIterable<RawMessageStreamEvent>;
    try {
      events = await this.client.messages.create(body, { signal });
    } catch (error) {
      signal?.throwIfAborted();
      throw toChatProviderError(error, 'request', secret);
    }
    return new AnthropicStreamedMessage(events, signal, (error) =>
      toChatProviderError(error, 'stream', secret),
    );
  }

  withThinking(effort: ThinkingEffort): AnthropicProvider {
    return new AnthropicProvider({ ...this.options, thinkingEffort: effort });
  }

  /** A fresh client drops whatever pooled connection went bad; the call is then worth one more try. */
  async onRetryableError(_error: Error): Promise<boolean> {
    this.client = createClient(this.options);
    return true;
  }
}

function createClient(options: ProviderOptions): Anthropic {
  const timeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return new Anthropic({
    // An empty key would be sent as a bare `Bearer`; leaving it unset lets the SDK fall back to its env vars.
    apiKey: options.apiKey || undefined,
    baseURL: options.baseUrl || undefined,
    defaultHeaders: options.customHeaders,
    timeout,
    maxRetries: 0,
    // Its key is a custom header (x-api-key), which fetch carries along a redirect to any host.
    fetch: withBodyIdleTimeout(sameOriginFetch, timeout),
    logLevel: 'off',
    openTelemetry: false,
  });
}
