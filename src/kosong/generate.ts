import { APIEmptyResponseError } from './errors.js';
import { copyPart, mergeInPlace } from './merge.js';
import type { Message, StreamedPart, TokenUsage, ToolCall } from './message.js';
import type { ChatProvider } from './provider.js';
import type { Tool } from './tool.js';

export interface GenerateOptions {
  signal?: AbortSignal | undefined;
  /** Every fragment as it arrives, as a copy the callee may keep or change. */
  onMessagePart?: ((part: StreamedPart) => void) | undefined;
  /** Each tool call the moment its arguments are complete, while the stream goes on. */
  onToolCall?: ((call: ToolCall) => void) | undefined;
}

export interface GenerateResult {
  id: string | null;
  message: Message;
  usage: TokenUsage | null;
}

/**
 * Runs one streamed model call and assembles the assistant message. A single pending part absorbs
 * fragments until one does not merge; that is the moment the pending part is complete, so it is
 * appended and, if it is a tool call, handed to `onToolCall` at once.
 */
export async function generate(
  provider: ChatProvider,
  systemPrompt: string,
  tools: readonly Tool[],
  history: readonly Message[],
  options: GenerateOptions = {},
): Promise<GenerateResult> {
  const { signal, onMessagePart, onToolCall } = options;
  signal?.throwIfAborted();
  const message: Message = { role: 'assistant', content: [] };
  const complete = (part: StreamedPart): void => {
    switch (part.type) {
      case 'tool_call_part':
        return; // an argument fragment with no tool call before it: nothing to attach it to
      case 'function':
        if (message.tool_calls) message.tool_calls.push(part);
        else message.tool_calls = [part];
        onToolCall?.(part);
        return;
      default:
        message.content.push(part);
    }
  };

  const stream = await provider.generate({ systemPrompt, tools, history, signal });
  let pending: StreamedPart | null = null;
  for await (const part of stream) {
    signal?.throwIfAborted();
    if (onMessagePart) onMessagePart(copyPart(part));
    if (pending === null) pending = part;
    else if (!mergeInPlace(pending, part)) {
      complete(pending);
      pending = part;
    }
  }
  if (pending !== null) complete(pending);

  assertNotEmpty(message);
  return { id: stream.id, message, usage: stream.usage };
}

/** Seed 002 §6.5: an answer with nothing visible and no tool call is never a normal ending. */
function assertNotEmpty(message: Message): void {
  if (message.tool_calls?.length) return;
  if (message.content.length === 0) throw new APIEmptyResponseError('The API returned an empty response.');
  const hasVisible = message.content.some(
    (part) => part.type !== 'think' && (part.type !== 'text' || part.text.trim() !== ''),
  );
  if (!hasVisible && message.content.some((part) => part.type === 'think')) {
    throw new APIEmptyResponseError(
      'The API returned a response with only thinking content and no visible output; the stream was likely cut or the output budget ran out while reasoning.',
    );
  }
  if (!hasVisible) throw new APIEmptyResponseError('The API returned an empty response.');
}
