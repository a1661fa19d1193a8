import OpenAI from 'openai';
import { ChatProviderError } from '../../errors.js';
import { errorBodyFetch } from '../error-body-fetch.js';
import { DEFAULT_TIMEOUT_MS, type ProviderOptions } from '../options.js';

// Control characters make fetch reject the whole request; a header pasted from a terminal may carry one.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const ILLEGAL_HEADER_CHARS = /[\u0000-\u0008\u000a-\u001f\u007f]/g;

/**
 * The SDK client of a provider and of every copy made from it by `withThinking`, so that rebuilding
 * it after a connection failure (seed 002 §7.3) heals all of them.
 */
export class ClientHolder {
  private current: OpenAI;

  constructor(
    private readonly options: ProviderOptions,
    private readonly defaultBaseUrl: string,
    readonly providerName: string,
  ) {
    this.current = this.build();
  }

  get client(): OpenAI {
    return this.current;
  }

  /** Drops the old client (and with it the connections it holds) and starts a new one. */
  rebuild(): void {
    this.current = this.build();
  }

  private build(): OpenAI {
    const { apiKey, baseUrl, customHeaders, timeoutMs } = this.options;
    // Local OpenAI-compatible servers (llama.cpp, Ollama, vLLM) usually need no key; hosted APIs do.
    if (!apiKey && this.providerName !== 'openai_legacy') {
      throw new ChatProviderError(`No API key is configured for the ${this.providerName} provider.`);
    }
    return new OpenAI({
      apiKey: apiKey || 'no-key',
      baseURL: baseUrl || this.defaultBaseUrl,
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

function sanitizeHeaders(headers: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!headers) return undefined;
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, value.replace(ILLEGAL_HEADER_CHARS, '').trim()]),
  );
}
