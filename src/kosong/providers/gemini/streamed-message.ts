import type { GenerateContentResponse, Part } from '@google/genai';
import type { StreamedPart, TokenUsage } from '../../message.js';
import type { StreamedMessage } from '../../provider.js';
import { THOUGHT_SIGNATURE } from './contents.js';

/**
 * One Gemini answer as kosong parts: thought text as think parts (a thought signature seals the
 * thinking before it), text as text, each function call as a complete tool call carrying its
 * signature in `extras`. Gemini sends calls whole, so there are no argument fragments; calls
 * without an id get one made from the response id.
 */
export class GeminiStreamedMessage implements StreamedMessage {
  private responseId: string | null = null;
  private tokenUsage: TokenUsage | null = null;
  private calls = 0;

  constructor(
    private readonly chunks: AsyncIterable<GenerateContentResponse>,
    private readonly mapError: (error: unknown) => Error,
    /** Called on every chunk (the idle timer), and once the stream has ended either way. */
    private readonly onChunk: () => void,
    private readonly onEnd: () => void,
  ) {}

  get id(): string | null {
    return this.responseId;
  }

  get usage(): TokenUsage | null {
    return this.tokenUsage;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<StreamedPart> {
    try {
      for await (const chunk of this.chunks) {
        this.onChunk();
        this.responseId ??= chunk.responseId ?? null;
        if (chunk.usageMetadata) this.tokenUsage = toUsage(chunk.usageMetadata);
        for (const part of chunk.candidates?.[0]?.content?.parts ?? []) yield* this.convert(part);
      }
    } catch (error) {
      throw this.mapError(error);
    } finally {
      this.onEnd();
    }
  }

  private *convert(part: Part): Iterable<StreamedPart> {
    if (part.functionCall) {
      const { id, name, args } = part.functionCall;
      this.calls++;
      yield {
        type: 'function',
        id: id || `${this.responseId ?? 'gemini'}-call-${this.calls}`,
        function: { name: name ?? '', arguments: JSON.stringify(args ?? {}) },
        ...(part.thoughtSignature ? { extras: { [THOUGHT_SIGNATURE]: part.thoughtSignature } } : {}),
      };
      return;
    }
    if (typeof part.text === 'string') {
      if (part.thought) {
        if (part.text) yield { type: 'think', think: part.text };
        if (part.thoughtSignature) yield { type: 'think', think: '', encrypted: part.thoughtSignature };
      } else if (part.text) {
        yield { type: 'text', text: part.text };
      }
    }
  }
}

function toUsage(metadata: NonNullable<GenerateContentResponse['usageMetadata']>): TokenUsage {
  const prompt = metadata.promptTokenCount ?? 0;
  const cached = metadata.cachedContentTokenCount ?? 0;
  return {
    input_other: Math.max(0, prompt - cached),
    input_cache_read: cached,
    input_cache_creation: 0,
    output: (metadata.candidatesTokenCount ?? 0) + (metadata.thoughtsTokenCount ?? 0),
  };
}
