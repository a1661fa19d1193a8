import { abortErrorFor } from '../../errors.js';
import type { ThinkingEffort } from '../../message.js';
import type { ChatProvider, GenerateRequest, StreamedMessage } from '../../provider.js';
import type { Tool } from '../../tool.js';
import type { ProviderOptions } from '../options.js';
import { mapOpenAIError } from '../sdk-errors.js';
import { chatBodyBytes } from './chat-body.js';
import { ChatCompletionStream } from './chat-completion-stream.js';
import { postChatStream } from './chat-http.js';
import type { ChatRequestTool, HistoryDialect } from './chat-request.js';
import type { ClientHolder } from './client.js';
import { RequestLink } from './request-link.js';

/** Sampling settings a caller may change per copy (the soul sets a completion budget per request). */
export type GenerationOptions = Pick<ProviderOptions, 'maxTokens' | 'temperature' | 'topP'>;

/**
 * What the `kimi` and `openai_legacy` providers share: one streamed `chat.completions.create` call
 * per `generate`, through an SDK client that copies share and that connection recovery rebuilds.
 * A subclass says how its server family wants history, tools and generation settings written.
 */
export abstract class ChatCompletionsProvider implements ChatProvider {
  abstract readonly name: string;
  protected abstract readonly dialect: HistoryDialect;

  protected constructor(
    protected readonly options: ProviderOptions,
    protected readonly clients: ClientHolder,
  ) {}

  get modelName(): string {
    return this.options.model;
  }

  get thinkingEffort(): ThinkingEffort | null {
    return this.options.thinkingEffort ?? null;
  }

  /** A copy with changed options that shares this provider's client. */
  protected abstract copyWith(options: ProviderOptions): this;

  protected abstract convertTool(tool: Tool): ChatRequestTool;

  /** Body fields beyond model, messages, tools and streaming. */
  protected abstract generationFields(): Record<string, unknown>;

  withThinking(effort: ThinkingEffort): this {
    return this.copyWith({ ...this.options, thinkingEffort: effort });
  }

  withGenerationOptions(overrides: GenerationOptions): this {
    return this.copyWith({ ...this.options, ...overrides });
  }

  async generate(request: GenerateRequest): Promise<StreamedMessage> {
    const { systemPrompt, tools, history, signal } = request;
    const { apiKey } = this.options;
    if (signal?.aborted) throw abortErrorFor(signal);
    const link = new RequestLink(signal);
    try {
      const body = chatBodyBytes({
        model: this.options.model,
        systemPrompt,
        history,
        dialect: this.dialect,
        tools,
        convertTool: (tool) => this.convertTool(tool),
        toolDialect: this.name,
        rest: { stream: true, stream_options: { include_usage: true }, ...this.generationFields() },
      });
      const chunks = await postChatStream({
        ...this.clients.endpoint,
        body,
        signal: link.signal,
        connections: this.clients.chatConnections,
      });
      return new ChatCompletionStream(chunks, {
        reasoningKey: this.dialect.reasoningKey,
        apiKey,
        idleTimeoutMs: this.clients.endpoint.timeoutMs,
        link,
      });
    } catch (error) {
      link.release();
      throw mapOpenAIError(error, { signal, apiKey });
    }
  }

  /** Seed 002 §7.3: a connection or timeout failure gets one more try on a fresh client. */
  async onRetryableError(_error: Error): Promise<boolean> {
    try {
      this.clients.rebuild();
      return true;
    } catch {
      return false;
    }
  }

  /** temperature / top_p, when configured. */
  protected samplingFields(): Record<string, unknown> {
    const { temperature, topP } = this.options;
    return {
      ...(temperature !== undefined ? { temperature } : {}),
      ...(topP !== undefined ? { top_p: topP } : {}),
    };
  }
}
