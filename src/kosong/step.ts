import { isAbortError } from './errors.js';
import { generate } from './generate.js';
import type { Message, StreamedPart, TokenUsage, ToolCall } from './message.js';
import type { ChatProvider } from './provider.js';
import type { StallOptions } from './stall-watchdog.js';
import { type ToolResult, type Toolset, toolError } from './tool.js';

export interface StepOptions {
  signal?: AbortSignal | undefined;
  onMessagePart?: ((part: StreamedPart) => void) | undefined;
  /** Each tool result as soon as it exists (not in call order). */
  onToolResult?: ((result: ToolResult) => void) | undefined;
  /**
   * When `signal` aborts the step (during generation or the wait for results): what the step had
   * done by then, once every tool has settled. The caller can record it, so the conversation shows
   * the model the calls it made and which of them finished.
   */
  onInterrupted?: ((step: InterruptedStep) => void) | undefined;
  /** Abandon the model call when it stays silent too long (see `generate`). */
  stall?: StallOptions | undefined;
  /** See `generate`'s `onResponseStarted`. */
  onResponseStarted?: (() => void) | undefined;
}

export interface InterruptedStep {
  /** The assistant message as far as it had arrived (complete parts, text still streaming, calls). */
  message: Message;
  /** Every dispatched call in call order, with its result if it finished before the abort, else null. */
  calls: { call: ToolCall; result: ToolResult | null }[];
}

export interface StepResult {
  id: string | null;
  message: Message;
  usage: TokenUsage | null;
  toolCalls: ToolCall[];
  /** Waits for every tool and returns the results in call order. */
  toolResults(): Promise<ToolResult[]>;
}

/**
 * One step: a model call whose tool calls are dispatched to the toolset the moment each completes
 * in the stream, so tools run while the model is still talking. If generation fails or is aborted,
 * or the wait for results is, every unfinished tool is aborted and awaited before the error is
 * rethrown: nothing is left running.
 */
export async function step(
  provider: ChatProvider,
  systemPrompt: string,
  toolset: Toolset,
  history: readonly Message[],
  options: StepOptions = {},
): Promise<StepResult> {
  const { signal, onMessagePart, onToolResult, onInterrupted } = options;
  const tools = new AbortController();
  const abortTools = (): void => tools.abort(signal?.reason);
  signal?.addEventListener('abort', abortTools, { once: true });
  let settleStream!: (clean: boolean) => void;
  const streamOutcome = new Promise<boolean>((resolve) => {
    settleStream = resolve;
  });
  const dispatch = { signal: tools.signal, streamOutcome };
  const toolCalls: ToolCall[] = [];
  const futures: Promise<ToolResult>[] = [];
  /** Results that existed before the tools were aborted, by call index. */
  const finished: (ToolResult | null)[] = [];
  const message: Message = { role: 'assistant', content: [] };

  const onToolCall = (call: ToolCall): void => {
    const index = toolCalls.push(call) - 1;
    finished.push(null);
    const outcome = safeHandle(toolset, call, dispatch);
    if (outcome instanceof Promise) {
      const reported = outcome.then((result) => {
        if (!tools.signal.aborted) finished[index] = result;
        onToolResult?.(result);
        return result;
      });
      futures.push(reported);
    } else {
      finished[index] = outcome;
      onToolResult?.(outcome);
      futures.push(Promise.resolve(outcome));
    }
  };

  const cancelAll = async (reason: unknown): Promise<void> => {
    tools.abort(reason);
    await Promise.allSettled(futures);
    signal?.removeEventListener('abort', abortTools);
    if (signal?.aborted && onInterrupted) {
      onInterrupted({ message, calls: toolCalls.map((call, i) => ({ call, result: finished[i] ?? null })) });
    }
  };

  let generated: Awaited<ReturnType<typeof generate>>;
  try {
    generated = await generate(provider, systemPrompt, toolset.tools, history, {
      signal,
      onMessagePart,
      onToolCall,
      message,
      stall: options.stall,
      onResponseStarted: options.onResponseStarted,
    });
  } catch (error) {
    settleStream(false);
    await cancelAll(error);
    throw error;
  }
  settleStream(true);

  return {
    id: generated.id,
    message: generated.message,
    usage: generated.usage,
    toolCalls,
    async toolResults(): Promise<ToolResult[]> {
      try {
        const results: ToolResult[] = [];
        for (const future of futures) results.push(await future);
        signal?.throwIfAborted();
        signal?.removeEventListener('abort', abortTools);
        return results;
      } catch (error) {
        await cancelAll(error);
        throw error;
      }
    },
  };
}

/** Enforces the toolset contract: whatever happens inside `handle`, the step gets a result. */
function safeHandle(
  toolset: Toolset,
  call: ToolCall,
  dispatch: Parameters<Toolset['handle']>[1],
): ToolResult | Promise<ToolResult> {
  const asResult = (error: unknown): ToolResult => ({
    tool_call_id: call.id,
    return_value: isAbortError(error)
      ? toolError('The tool call was cancelled.', 'Cancelled')
      : toolError(
          `Error running tool: ${error instanceof Error ? error.message : String(error)}`,
          'Tool runtime error',
        ),
  });
  try {
    const outcome = toolset.handle(call, dispatch);
    return outcome instanceof Promise ? outcome.catch(asResult) : outcome;
  } catch (error) {
    return asResult(error);
  }
}
