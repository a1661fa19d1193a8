import type {
  MessageDeltaUsage,
  RawContentBlockDeltaEvent,
  RawContentBlockStartEvent,
  RawMessageStreamEvent,
  Usage,
} from '@anthropic-ai/sdk/resources/messages';
import { APIConnectionError } from '../../errors.js';
import type { ProviderPart, StreamedPart, TokenUsage } from '../../message.js';
import type { StreamedMessage } from '../../provider.js';
import { redactedThinkingMarker } from './redacted-thinking.js';

/**
 * One Anthropic answer as kosong parts. Text, thinking and tool-use blocks become text, think and
 * tool-call parts; a `signature_delta` becomes a think part carrying only `encrypted`, which the
 * merge rules fold into (and seal) the thinking before it.
 *
 * Failures surface as `mapError(error)`; an aborted `signal` wins over everything, because the SDK
 * ends its iteration quietly when the request is aborted.
 */
export class AnthropicStreamedMessage implements StreamedMessage {
  private messageId: string | null = null;
  private tokenUsage: TokenUsage | null = null;

  constructor(
    private readonly events: AsyncIterable<RawMessageStreamEvent>,
    private readonly signal: AbortSignal | undefined,
    private readonly mapError: (error: unknown) => Error,
  ) {}

  get id(): string | null {
    return this.messageId;
  }

  get usage(): TokenUsage | null {
    return this.tokenUsage;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<ProviderPart> {
    const blocks = new BlockTracker();
    let complete = false;
    try {
      for await (const event of this.events) {
        switch (event.type) {
          case 'message_start':
            this.messageId = event.message?.id ?? null;
            this.tokenUsage = startUsage(event.message?.usage);
            break;
          case 'content_block_start': {
            const part = blocks.start(event);
            if (part) yield part;
            break;
          }
          case 'content_block_delta': {
            const part = blocks.delta(event);
            if (part) yield part;
            break;
          }
          case 'content_block_stop':
            yield* blocks.stop(event.index);
            break;
          case 'message_delta':
            this.tokenUsage = deltaUsage(this.tokenUsage, event.usage);
            break;
          case 'message_stop':
            complete = true;
            break;
        }
      }
    } catch (error) {
      this.signal?.throwIfAborted();
      throw this.mapError(error);
    }
    this.signal?.throwIfAborted();
    if (!complete) {
      throw new APIConnectionError('The Anthropic API stream ended before the message was complete.');
    }
  }
}

/** Remembers which content-block indexes are tool calls, the only blocks whose deltas need context. */
class BlockTracker {
  /** Tool-use block index → whether any argument text has been emitted for it. */
  private readonly toolBlocks = new Map<number, boolean>();

  start(event: RawContentBlockStartEvent): StreamedPart | null {
    const block = event.content_block;
    switch (block.type) {
      case 'text':
        return block.text ? { type: 'text', text: block.text } : null;
      case 'thinking':
        if (!block.thinking && !block.signature) return null;
        return {
          type: 'think',
          think: block.thinking ?? '',
          ...(block.signature ? { encrypted: block.signature } : {}),
        };
      case 'tool_use': {
        // Some compatible servers put the whole input in the start block instead of streaming it.
        const input = block.input && typeof block.input === 'object' ? block.input : {};
        const prefilled = Object.keys(input).length > 0 ? JSON.stringify(input) : '';
        this.toolBlocks.set(event.index, prefilled !== '');
        return { type: 'function', id: block.id, function: { name: block.name, arguments: prefilled } };
      }
      case 'redacted_thinking':
        return { type: 'think', think: '', encrypted: redactedThinkingMarker(block.data) };
      default:
        // Server-side tools have no kosong counterpart.
        return null;
    }
  }

  delta(event: RawContentBlockDeltaEvent): StreamedPart | null {
    const delta = event.delta;
    switch (delta.type) {
      case 'text_delta':
        return delta.text ? { type: 'text', text: delta.text } : null;
      case 'thinking_delta':
        return delta.thinking ? { type: 'think', think: delta.thinking } : null;
      case 'signature_delta':
        return delta.signature ? { type: 'think', think: '', encrypted: delta.signature } : null;
      case 'input_json_delta':
        // Input deltas of blocks that are not ours (server tools) must not leak into a tool call.
        if (!this.toolBlocks.has(event.index) || !delta.partial_json) return null;
        this.toolBlocks.set(event.index, true);
        return { type: 'tool_call_part', arguments_part: delta.partial_json };
      default:
        return null;
    }
  }

  /**
   * The end of a tool_use block: its arguments are complete (the call is dispatched now, even if
   * they do not parse). A tool that takes no input streams no argument text; it gets `{}`.
   */
  stop(index: number): ProviderPart[] {
    const hasArguments = this.toolBlocks.get(index);
    if (hasArguments === undefined) return [];
    this.toolBlocks.delete(index);
    const end: ProviderPart = { type: 'tool_call_end' };
    return hasArguments ? [end] : [{ type: 'tool_call_part', arguments_part: '{}' }, end];
  }
}

function startUsage(usage: Usage | undefined): TokenUsage | null {
  if (!usage) return null;
  return {
    input_other: usage.input_tokens ?? 0,
    output: usage.output_tokens ?? 0,
    input_cache_read: usage.cache_read_input_tokens ?? 0,
    input_cache_creation: usage.cache_creation_input_tokens ?? 0,
  };
}

/** `message_delta` usage is cumulative; input fields are present only when the server recounted them. */
function deltaUsage(current: TokenUsage | null, usage: MessageDeltaUsage | undefined): TokenUsage | null {
  if (!usage) return current;
  const base = current ?? { input_other: 0, output: 0, input_cache_read: 0, input_cache_creation: 0 };
  return {
    input_other: usage.input_tokens ?? base.input_other,
    output: usage.output_tokens ?? base.output,
    input_cache_read: usage.cache_read_input_tokens ?? base.input_cache_read,
    input_cache_creation: usage.cache_creation_input_tokens ?? base.input_cache_creation,
  };
}
