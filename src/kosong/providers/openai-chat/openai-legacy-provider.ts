import type { Tool } from '../../tool.js';
import type { ProviderOptions } from '../options.js';
import { ChatCompletionsProvider } from './chat-completions-provider.js';
import { type ChatRequestTool, convertTool, type HistoryDialect } from './chat-request.js';
import { ClientHolder } from './client.js';

export interface OpenAIChatOptions extends ProviderOptions {
  /**
   * Field that carries reasoning in assistant messages and stream deltas (the config's
   * `reasoning_key`): default `reasoning_content`; `''` turns reasoning off both ways.
   */
  reasoningKey?: string | undefined;
}

const DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/** The `openai_legacy` provider: any server that speaks OpenAI's Chat Completions API. */
export class OpenAIChatProvider extends ChatCompletionsProvider {
  readonly name = 'openai_legacy';
  protected readonly dialect: HistoryDialect;

  constructor(options: OpenAIChatOptions, clients?: ClientHolder) {
    super(options, clients ?? new ClientHolder(options, DEFAULT_BASE_URL, 'openai_legacy'));
    this.dialect = {
      reasoningKey: options.reasoningKey ?? 'reasoning_content',
      keepEmptyReasoning: false,
      omitEmptyContentWithToolCalls: false,
    };
  }

  protected copyWith(options: ProviderOptions): this {
    return new OpenAIChatProvider(options, this.clients) as this;
  }

  protected convertTool(tool: Tool): ChatRequestTool {
    return convertTool(tool);
  }

  protected generationFields(): Record<string, unknown> {
    const { maxTokens, thinkingEffort } = this.options;
    return {
      ...this.samplingFields(),
      ...(maxTokens !== undefined ? { max_tokens: maxTokens } : {}),
      ...(thinkingEffort && thinkingEffort !== 'off' ? { reasoning_effort: thinkingEffort } : {}),
    };
  }
}
