import { toFile } from 'openai/core/uploads';
import type { FilePurpose } from 'openai/resources/files';
import type { VideoUpload } from '../../provider.js';
import type { Tool } from '../../tool.js';
import type { ProviderOptions } from '../options.js';
import { mapOpenAIError } from '../sdk-errors.js';
import { ChatCompletionsProvider } from './chat-completions-provider.js';
import { type ChatRequestTool, convertTool, type HistoryDialect } from './chat-request.js';
import { ClientHolder } from './client.js';

const DEFAULT_BASE_URL = 'https://api.moonshot.ai/v1';

/**
 * The `kimi` provider: Moonshot's Chat Completions API with its extras. Thinking is switched with
 * a `thinking` body field, never with `reasoning_effort`, and the reasoning of earlier answers goes
 * back as `reasoning_content` (even when empty: thinking models ask for it on every assistant turn).
 */
export class KimiProvider extends ChatCompletionsProvider {
  readonly name = 'kimi';
  protected readonly dialect: HistoryDialect = {
    reasoningKey: 'reasoning_content',
    keepEmptyReasoning: true,
    omitEmptyContentWithToolCalls: true,
  };

  constructor(options: ProviderOptions, clients?: ClientHolder) {
    super(options, clients ?? new ClientHolder(options, DEFAULT_BASE_URL, 'kimi'));
  }

  protected copyWith(options: ProviderOptions): this {
    return new KimiProvider(options, this.clients) as this;
  }

  /** Kimi's files API takes videos (`purpose: "video"`); a message then names the file `ms://<id>`. */
  async uploadVideo(video: VideoUpload, signal?: AbortSignal): Promise<string> {
    const { apiKey } = this.options;
    try {
      const client = await this.clients.client();
      const file = await client.files.create(
        {
          file: await toFile(video.data, video.filename, { type: video.mimeType }),
          // Not among the OpenAI SDK's purposes, but what Moonshot's files API expects for video.
          purpose: 'video' as FilePurpose,
        },
        { signal },
      );
      return `ms://${file.id}`;
    } catch (error) {
      throw mapOpenAIError(error, { signal, apiKey });
    }
  }

  protected convertTool(tool: Tool): ChatRequestTool {
    // Kimi's built-in functions (`$web_search`, ...) are named, not described.
    if (tool.name.startsWith('$')) return { type: 'builtin_function', function: { name: tool.name } };
    const converted = convertTool(tool);
    // Kimi rejects a parameters schema without a type; ours may come from an MCP server that omits it.
    if (converted.function.parameters && !('type' in converted.function.parameters)) {
      converted.function.parameters = { type: 'object', ...converted.function.parameters };
    }
    return converted;
  }

  protected generationFields(): Record<string, unknown> {
    const { maxTokens, thinkingEffort, thinkingKeep, sessionId } = this.options;
    const thinking =
      thinkingEffort === 'off'
        ? { type: 'disabled' }
        : thinkingEffort
          ? { type: 'enabled', ...(thinkingKeep !== undefined ? { keep: thinkingKeep } : {}) }
          : null;
    return {
      ...this.samplingFields(),
      ...(maxTokens !== undefined ? { max_completion_tokens: maxTokens } : {}),
      ...(thinking ? { thinking } : {}),
      ...(sessionId ? { prompt_cache_key: sessionId } : {}),
    };
  }
}
