import { AnswerBudget, contentChars } from './answer-limit.js';
import { EitherSignal } from './either-signal.js';
import { APIEmptyResponseError, ChatProviderError } from './errors.js';
import { JsonCompleteness } from './json-completeness.js';
import { copyPart, mergeInPlace } from './merge.js';
import type { Message, StreamedPart, TokenUsage, ToolCall } from './message.js';
import type { ChatProvider } from './provider.js';
import { type StallOptions, StallWatchdog } from './stall-watchdog.js';
import type { Tool } from './tool.js';

export interface GenerateOptions {
  signal?: AbortSignal | undefined;
  /** Every fragment as it arrives, as a copy the callee may keep or change. */
  onMessagePart?: ((part: StreamedPart) => void) | undefined;
  /** Each tool call the moment its arguments are complete, while the stream goes on. */
  onToolCall?: ((call: ToolCall) => void) | undefined;
  /**
   * The message to assemble into (default: a new one). A caller that passes its own can read what
   * had arrived when the call fails or is aborted: the complete parts, the pending text, the calls.
   */
  message?: Message | undefined;
  /** Abandon the call (APITimeoutError) when the model stays silent this long; report the wait. */
  stall?: StallOptions | undefined;
  /**
   * Called once the provider's answer has begun (so the request went out whole): work that need not
   * come before the request (background git, pruning) can start then, off the start's path.
   */
  onResponseStarted?: (() => void) | undefined;
  /** The most characters the answer may stream (default: answer-limit.ts, MAX_ANSWER_CHARS). */
  maxAnswerChars?: number | undefined;
}

export interface GenerateResult {
  id: string | null;
  message: Message;
  usage: TokenUsage | null;
}

/**
 * Runs one streamed model call and assembles the assistant message. A single pending part absorbs
 * fragments until one does not merge; that is the moment the pending part is complete, so it is
 * appended and, if it is a tool call, handed to `onToolCall` at once. A tool call is complete even
 * earlier, the moment its arguments form one closed JSON object or array (nothing can follow that),
 * or when the provider says its arguments are done (`tool_call_end`).
 */
export async function generate(
  provider: ChatProvider,
  systemPrompt: string,
  tools: readonly Tool[],
  history: readonly Message[],
  options: GenerateOptions = {},
): Promise<GenerateResult> {
  options.signal?.throwIfAborted();
  if (!options.stall) return assemble(provider, systemPrompt, tools, history, options, null, options.signal);
  const watchdog = new StallWatchdog(options.stall);
  const either = options.signal ? new EitherSignal(options.signal, watchdog.signal) : null;
  try {
    return await assemble(
      provider,
      systemPrompt,
      tools,
      history,
      options,
      watchdog,
      either?.signal ?? watchdog.signal,
    );
  } catch (error) {
    if (watchdog.stalled && !options.signal?.aborted) throw watchdog.error();
    throw error;
  } finally {
    watchdog.stop();
    either?.release();
  }
}

async function assemble(
  provider: ChatProvider,
  systemPrompt: string,
  tools: readonly Tool[],
  history: readonly Message[],
  options: GenerateOptions,
  watchdog: StallWatchdog | null,
  /** The caller's signal, or one that also follows the watchdog. */
  callSignal: AbortSignal | undefined,
): Promise<GenerateResult> {
  const { signal, onMessagePart, onToolCall } = options;
  const message: Message = options.message ?? { role: 'assistant', content: [] };
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

  const stream = await provider.generate({ systemPrompt, tools, history, signal: callSignal });
  options.onResponseStarted?.();
  // Every fragment counts, those merged into the pending part and those dropped alike: the stream
  // ends at the cap whatever the model sends (AnswerTooLongError, content so far kept as below).
  const budget = new AnswerBudget(options.maxAnswerChars);
  let pending = null as StreamedPart | null;
  /** The arguments of the pending tool call so far, to tell the moment they close. */
  let pendingJson = null as JsonCompleteness | null;
  /** The call dispatched when its arguments closed: only whitespace may still follow for it. */
  let closedCall = null as ToolCall | null;
  const completeIfClosed = (call: ToolCall, json: JsonCompleteness): boolean => {
    if (!json.isClosed) return false;
    complete(call);
    closedCall = call;
    pending = null;
    pendingJson = null;
    return true;
  };
  const begin = (part: StreamedPart): void => {
    closedCall = null;
    pending = part;
    pendingJson = null;
    if (part.type !== 'function') return;
    const json = new JsonCompleteness();
    if (part.function.arguments) json.feed(part.function.arguments);
    if (!completeIfClosed(part, json)) pendingJson = json;
  };
  try {
    for await (const part of stream) {
      signal?.throwIfAborted();
      // Stalled: nothing more is taken, even from a stream that does not follow the abort.
      if (watchdog?.stalled) throw watchdog.error();
      // Only what brings something is a sign of life: empty fragments sent inside every timeout
      // would otherwise hold the turn open for ever.
      if (part.type !== 'tool_call_end' && contentChars(part) > 0) watchdog?.touch();
      if (part.type === 'tool_call_end') {
        // The provider says the pending call's arguments are all there: it goes now, even if they
        // do not parse (its error result then comes at once, not at the end of the stream).
        if (pending?.type === 'function') {
          const call = pending;
          complete(call);
          closedCall = call;
          pending = null;
          pendingJson = null;
        }
        continue;
      }
      budget.spend(part);
      if (onMessagePart) onMessagePart(copyPart(part));
      if (closedCall !== null && part.type === 'tool_call_part') {
        if (part.arguments_part?.trim()) throw argumentsAfterClose(closedCall);
        continue;
      }
      if (pending === null) begin(part);
      else if (mergeInPlace(pending, part)) {
        if (pendingJson !== null && pending.type === 'function' && part.type === 'tool_call_part') {
          if (part.arguments_part) pendingJson.feed(part.arguments_part);
          completeIfClosed(pending, pendingJson);
        }
      } else {
        complete(pending);
        begin(part);
      }
    }
  } catch (error) {
    // What was still arriving is kept if it is content; a call whose arguments had not closed is not.
    if (pending !== null && pending.type !== 'function' && pending.type !== 'tool_call_part')
      complete(pending);
    throw error;
  }
  // A provider may end an aborted stream quietly, as if it were complete.
  if (watchdog?.stalled) throw watchdog.error();
  if (pending !== null) complete(pending);

  assertNotEmpty(message);
  return { id: stream.id, message, usage: stream.usage };
}

function argumentsAfterClose(call: ToolCall): ChatProviderError {
  return new ChatProviderError(
    `The API sent more arguments for tool call ${call.id} (${call.function.name}) after its arguments had formed a complete JSON value.`,
  );
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
