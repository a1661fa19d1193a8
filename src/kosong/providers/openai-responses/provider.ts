import OpenAI from 'openai';
import { abortErrorFor, ChatProviderError } from '../../errors.js';
import type { ThinkingEffort } from '../../message.js';
import type { ChatProvider, GenerateRequest, StreamedMessage } from '../../provider.js';
import { errorBodyFetch } from '../error-body-fetch.js';
import { DEFAULT_TIMEOUT_MS, type ProviderOptions } from '../options.js';
import { mapOpenAIError } from '../sdk-errors.js';
import { buildResponsesRequest } from './request.js';
import { redactKey } from './stream-failure.js';
import { ResponsesStreamedMessage } from './streamed-message.js';

/**
 * A chat provider on OpenAI's Responses API (`type = "openai_responses"` in the config).
 *
 * Stateless by design (`store: false`): the whole history goes out on every call, and reasoning is
 * carried across calls as encrypted content. Retries belong to the soul, so the SDK never retries.
 */
export class OpenAIResponsesProvider implements ChatProvider {
  readonly name = 'openai_responses';
  private client: OpenAI;

  constructor(private readonly options: ProviderOptions) {
    this.client = this.createClient();
  }

  get modelName(): string {
    return this.options.model;
  }

  get thinkingEffort(): ThinkingEffort | null {
    return this.options.thinkingEffort ?? null;
  }

  private get timeoutMs(): number {
    return this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /** The key in use (from the options or the SDK's OPENAI_API_KEY fallback), to mask in messages. */
  private get apiKey(): string | undefined {
    return this.options.apiKey ?? this.client.apiKey ?? undefined;
  }

  async generate(request: GenerateRequest): Promise<StreamedMessage> {
    const { signal } = request;
    if (signal?.aborted) throw abortErrorFor(signal);
    const body = buildResponsesRequest(
      { ...this.options, thinkingEffort: this.thinkingEffort },
      request.systemPrompt,
      request.tools,
      request.history,
    );

    // Our own controller, so the idle timer can end the request too; it follows the caller's signal.
    const controller = new AbortController();
    const followCaller = (): void => controller.abort(signal?.reason);
    signal?.addEventListener('abort', followCaller, { once: true });
    const release = (): void => signal?.removeEventListener('abort', followCaller);

    try {
      const { data, request_id } = await this.client.responses
        .create(body, { signal: controller.signal })
        .withResponse();
      return new ResponsesStreamedMessage({
        events: data,
        controller,
        signal,
        idleTimeoutMs: this.timeoutMs,
        requestId: request_id,
        apiKey: this.apiKey,
        onClose: release,
      });
    } catch (error) {
      release();
      throw mapOpenAIError(error, { signal, apiKey: this.apiKey });
    }
  }

  withThinking(effort: ThinkingEffort): OpenAIResponsesProvider {
    return new OpenAIResponsesProvider({ ...this.options, thinkingEffort: effort });
  }

  /** A broken connection may have left the HTTP client's pool in a bad state: start afresh. */
  async onRetryableError(_error: Error): Promise<boolean> {
    this.client = this.createClient();
    return true;
  }

  private createClient(): OpenAI {
    try {
      return new OpenAI({
        ...(this.options.apiKey !== undefined ? { apiKey: this.options.apiKey } : {}),
        ...(this.options.baseUrl ? { baseURL: this.options.baseUrl } : {}),
        ...(this.options.customHeaders ? { defaultHeaders: this.options.customHeaders } : {}),
        timeout: this.timeoutMs,
        maxRetries: 0,
        fetch: errorBodyFetch,
      });
    } catch (error) {
      // Without a key in the options the SDK falls back to OPENAI_API_KEY and throws if it is unset.
      const reason = error instanceof Error ? error.message : String(error);
      throw new ChatProviderError(
        `Cannot set up the openai_responses provider: ${redactKey(reason, this.options.apiKey)}`,
      );
    }
  }
}
