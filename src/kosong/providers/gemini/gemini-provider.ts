import { type GenerateContentConfig, GoogleGenAI } from '@google/genai';
import { abortErrorFor } from '../../errors.js';
import type { ThinkingEffort } from '../../message.js';
import type { ChatProvider, GenerateRequest, StreamedMessage } from '../../provider.js';
import { DEFAULT_TIMEOUT_MS, type ProviderOptions } from '../options.js';
import { toFunctionDeclaration, toGeminiContents } from './contents.js';
import { GeminiIdleTimeout, toChatProviderError } from './error-conversion.js';
import { GeminiStreamedMessage } from './streamed-message.js';

/** Thinking budgets in tokens per effort (`off` asks for none). */
export const GEMINI_THINKING_BUDGETS: Readonly<Record<Exclude<ThinkingEffort, 'off'>, number>> = {
  low: 1_024,
  medium: 8_192,
  high: 24_576,
  xhigh: 24_576,
  max: 32_768,
};

/** Vertex AI instead of the Gemini API: with an API key (express mode), else project and location (ADC). */
export interface VertexTarget {
  project?: string | undefined;
  location?: string | undefined;
}

/**
 * A `ChatProvider` for Google's Gemini API (or Vertex AI) on the official `@google/genai` SDK. The
 * SDK never retries here (the soul owns retries); `timeoutMs` bounds the wait for the answer and
 * every silence between its chunks, not the whole answer.
 */
export class GeminiProvider implements ChatProvider {
  readonly name: 'gemini' | 'vertexai';
  private client: GoogleGenAI;

  constructor(
    private readonly options: ProviderOptions,
    private readonly vertex: VertexTarget | null = null,
  ) {
    this.name = vertex ? 'vertexai' : 'gemini';
    this.client = createClient(options, vertex);
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
    const secret = this.options.apiKey;
    const idle = new AbortController();
    const timeoutMs = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    let timer: NodeJS.Timeout | undefined;
    const arm = (): void => {
      clearTimeout(timer);
      timer = setTimeout(
        () => idle.abort(new GeminiIdleTimeout(`no data for ${Math.round(timeoutMs / 1000)} s`)),
        timeoutMs,
      );
    };
    const disarm = (): void => clearTimeout(timer);
    const abortSignal = signal ? AbortSignal.any([signal, idle.signal]) : idle.signal;
    const mapError = (error: unknown): Error => {
      if (signal?.aborted) return abortErrorFor(signal, error);
      return toChatProviderError(idle.signal.aborted ? idle.signal.reason : error, secret, signal);
    };
    arm();
    try {
      const chunks = await this.client.models.generateContentStream({
        model: this.options.model,
        contents: toGeminiContents(request.history),
        config: { ...this.generationConfig(request), abortSignal },
      });
      return new GeminiStreamedMessage(chunks, mapError, arm, disarm);
    } catch (error) {
      disarm();
      throw mapError(error);
    }
  }

  withThinking(effort: ThinkingEffort): GeminiProvider {
    return new GeminiProvider({ ...this.options, thinkingEffort: effort }, this.vertex);
  }

  /** A fresh client drops whatever pooled connection went bad; the call is then worth one more try. */
  async onRetryableError(_error: Error): Promise<boolean> {
    this.client = createClient(this.options, this.vertex);
    return true;
  }

  private generationConfig(request: GenerateRequest): GenerateContentConfig {
    const { maxTokens, temperature, topP, thinkingEffort } = this.options;
    const config: GenerateContentConfig = {};
    if (request.systemPrompt) config.systemInstruction = request.systemPrompt;
    if (request.tools.length > 0) {
      config.tools = [{ functionDeclarations: request.tools.map(toFunctionDeclaration) }];
    }
    if (maxTokens !== undefined) config.maxOutputTokens = maxTokens;
    if (temperature !== undefined) config.temperature = temperature;
    if (topP !== undefined) config.topP = topP;
    if (thinkingEffort === 'off') config.thinkingConfig = { thinkingBudget: 0 };
    else if (thinkingEffort) {
      config.thinkingConfig = {
        thinkingBudget: GEMINI_THINKING_BUDGETS[thinkingEffort],
        includeThoughts: true,
      };
    }
    return config;
  }
}

function createClient(options: ProviderOptions, vertex: VertexTarget | null): GoogleGenAI {
  // The SDK adds the API version itself: a base URL that already ends in one would double it.
  const baseUrl = options.baseUrl?.replace(/\/v1(beta1?)?\/?$/, '') || undefined;
  const target = !vertex
    ? {}
    : options.apiKey
      ? { vertexai: true }
      : { vertexai: true, project: vertex.project, location: vertex.location };
  return new GoogleGenAI({
    ...target,
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    httpOptions: {
      ...(baseUrl ? { baseUrl } : {}),
      ...(options.customHeaders ? { headers: options.customHeaders } : {}),
    },
  });
}
