import { AnswerBudget } from '../../answer-limit.js';
import { ChatProviderError } from '../../errors.js';
import type { ProviderPart, StreamedPart, TokenUsage, ToolCall } from '../../message.js';
import {
  isHandledEventType,
  type ResponsesEvent,
  type ResponsesOutputItem,
  type ResponsesUsage,
  responsesEventSchema,
} from './events.js';
import { streamFailureError } from './stream-failure.js';

/** A function call announced by the stream, with the arguments received for it so far. */
interface CallState {
  readonly itemId: string;
  readonly callId: string;
  readonly name: string;
  /** `announced`: known, not yet yielded; `open`: yielded, its argument deltas follow it; `closed`. */
  phase: 'announced' | 'open' | 'closed';
  /** Arguments yielded so far (open/closed) or received so far (announced). */
  arguments: string;
  /** The final arguments are known (the call finished while it was still waiting). */
  isComplete: boolean;
}

interface ReasoningState {
  streamedSummary: boolean;
  lastSummaryIndex: number;
}

/**
 * Turns Responses stream events into kosong parts.
 *
 * kosong attaches a `ToolCallPart` to the tool call yielded just before it, so at most one call is
 * "open" at a time: a call announced while another is still open waits (its argument deltas are
 * buffered) and is yielded, with everything received, once the open one is done. Any other part
 * yielded while a call is open ends that call's streaming; its later deltas are dropped, since
 * kosong has already completed it.
 */
export class ResponsesStreamConverter {
  id: string | null = null;
  usage: TokenUsage | null = null;
  /** Set once `response.completed` or `response.incomplete` has arrived. */
  isFinished = false;

  private readonly calls = new Map<string, CallState>();
  private readonly callsByOutputIndex = new Map<number, CallState>();
  private readonly waiting: CallState[] = [];
  private open: CallState | null = null;
  private readonly reasoning = new Map<string, ReasoningState>();

  constructor(
    private readonly requestId: string | null = null,
    /** Masked out of error messages, in case a server echoes it. */
    private readonly apiKey: string | undefined = undefined,
    /**
     * What waits here before `generate` sees it (calls announced while another streams, and their
     * arguments) counts against the answer cap as it arrives: an endless one would never reach it.
     */
    private readonly budget: AnswerBudget = new AnswerBudget(),
  ) {}

  /** The parts one raw event yields; throws a typed error for failure events. */
  handle(raw: unknown): ProviderPart[] {
    const type = typeof raw === 'object' && raw !== null ? (raw as { type?: unknown }).type : undefined;
    if (!isHandledEventType(type)) return [];
    const parsed = responsesEventSchema.safeParse(raw);
    if (!parsed.success) {
      throw new ChatProviderError(
        `The Responses API sent a malformed \`${type}\` event: ${parsed.error.message}`,
      );
    }
    const out: ProviderPart[] = [];
    this.apply(parsed.data, out);
    return out;
  }

  private apply(event: ResponsesEvent, out: ProviderPart[]): void {
    switch (event.type) {
      case 'response.created':
        this.id = event.response.id ?? this.id;
        return;
      case 'response.output_item.added':
        if (event.item.type === 'function_call') this.announceCall(event.item, event.output_index, out);
        return;
      case 'response.function_call_arguments.delta':
        this.appendArguments(this.findCall(event.item_id, event.output_index), event.delta, out);
        return;
      case 'response.function_call_arguments.done': {
        const call = this.findCall(event.item_id, event.output_index);
        if (call) this.finishCall(call, event.arguments, out);
        return;
      }
      case 'response.output_item.done':
        this.itemDone(event.item, event.output_index, out);
        return;
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        if (event.delta) this.emitContent({ type: 'text', text: event.delta }, out);
        return;
      case 'response.reasoning_summary_text.delta':
        this.summaryDelta(event.item_id ?? '', event.summary_index ?? 0, event.delta, out);
        return;
      case 'response.completed':
      case 'response.incomplete':
        this.id = event.response.id ?? this.id;
        if (event.response.usage) this.usage = toTokenUsage(event.response.usage);
        this.isFinished = true;
        this.promoteWaiting(out, true);
        return;
      case 'response.failed':
        throw streamFailureError(
          event.response.error?.code,
          event.response.error?.message,
          this.requestId,
          this.apiKey,
        );
      case 'error':
        throw streamFailureError(event.code, event.message, this.requestId, this.apiKey);
    }
  }

  private announceCall(
    item: ResponsesOutputItem,
    outputIndex: number | null | undefined,
    out: ProviderPart[],
  ): CallState {
    const callId = item.call_id ?? item.id ?? '';
    this.budget.spendChars(callId.length + (item.name?.length ?? 0) + (item.arguments?.length ?? 0));
    const call: CallState = {
      itemId: item.id ?? callId,
      callId,
      name: item.name ?? '',
      phase: 'announced',
      arguments: item.arguments ?? '',
      isComplete: false,
    };
    this.calls.set(call.itemId, call);
    if (outputIndex !== null && outputIndex !== undefined) this.callsByOutputIndex.set(outputIndex, call);
    this.waiting.push(call);
    this.promoteWaiting(out, false);
    return call;
  }

  private findCall(
    itemId: string | null | undefined,
    outputIndex: number | null | undefined,
  ): CallState | undefined {
    if (itemId) {
      const byId = this.calls.get(itemId);
      if (byId) return byId;
    }
    return outputIndex === null || outputIndex === undefined
      ? undefined
      : this.callsByOutputIndex.get(outputIndex);
  }

  private appendArguments(call: CallState | undefined, delta: string, out: ProviderPart[]): void {
    if (!call || !delta) return;
    if (call.phase === 'announced') {
      this.budget.spendChars(delta.length);
      call.arguments += delta;
    } else if (call.phase === 'open') {
      call.arguments += delta;
      out.push({ type: 'tool_call_part', arguments_part: delta });
    }
  }

  /**
   * The final arguments of a call are authoritative: whatever part of them was not streamed yet
   * is yielded now (some servers send arguments only here). A call still waiting just takes them.
   */
  private finishCall(call: CallState, finalArguments: string | null | undefined, out: ProviderPart[]): void {
    if (call.phase === 'closed') return;
    const final = finalArguments ?? call.arguments;
    if (call.phase === 'announced') {
      call.arguments = final;
      call.isComplete = true;
      return;
    }
    if (final.length > call.arguments.length && final.startsWith(call.arguments)) {
      out.push({ type: 'tool_call_part', arguments_part: final.slice(call.arguments.length) });
      call.arguments = final;
    }
    call.phase = 'closed';
    this.open = null;
    // The arguments are done: the call is dispatched now, whether or not they parse.
    out.push({ type: 'tool_call_end' });
    this.promoteWaiting(out, false);
  }

  private itemDone(
    item: ResponsesOutputItem,
    outputIndex: number | null | undefined,
    out: ProviderPart[],
  ): void {
    if (item.type === 'function_call') {
      const call = this.findCall(item.id, outputIndex) ?? this.announceCall(item, outputIndex, out);
      this.finishCall(call, item.arguments, out);
      return;
    }
    if (item.type === 'reasoning') this.reasoningDone(item, out);
  }

  /** Yields waiting calls in order while no call is open (all of them when the stream is ending). */
  private promoteWaiting(out: ProviderPart[], ending: boolean): void {
    while (this.open === null || ending) {
      const next = this.waiting.shift();
      if (!next) return;
      if (this.open) this.closeOpen();
      out.push(toToolCall(next));
      if (next.isComplete) {
        next.phase = 'closed';
        out.push({ type: 'tool_call_end' });
      } else {
        next.phase = 'open';
        this.open = next;
      }
    }
  }

  private closeOpen(): void {
    if (this.open) this.open.phase = 'closed';
    this.open = null;
  }

  /** Any non-call part ends the open call's streaming (kosong completes it on seeing this part). */
  private emitContent(part: StreamedPart, out: ProviderPart[]): void {
    this.closeOpen();
    out.push(part);
    this.promoteWaiting(out, false);
  }

  private summaryDelta(itemId: string, summaryIndex: number, delta: string, out: ProviderPart[]): void {
    const state = this.reasoningState(itemId);
    // Summary parts are separate paragraphs; they share one think part, so keep them apart.
    const separator = state.streamedSummary && summaryIndex !== state.lastSummaryIndex ? '\n\n' : '';
    state.streamedSummary = true;
    state.lastSummaryIndex = summaryIndex;
    if (separator || delta) this.emitContent({ type: 'think', think: separator + delta }, out);
  }

  /**
   * The encrypted content seals the think part streamed for this item. If the summary was not
   * streamed (only sent here), it comes with the seal.
   */
  private reasoningDone(item: ResponsesOutputItem, out: ProviderPart[]): void {
    const state = this.reasoningState(item.id ?? '');
    const summary = state.streamedSummary ? '' : (item.summary ?? []).map((entry) => entry.text).join('\n\n');
    if (item.encrypted_content) {
      this.emitContent({ type: 'think', think: summary, encrypted: item.encrypted_content }, out);
    } else if (summary) {
      this.emitContent({ type: 'think', think: summary }, out);
    }
  }

  private reasoningState(itemId: string): ReasoningState {
    let state = this.reasoning.get(itemId);
    if (!state) {
      state = { streamedSummary: false, lastSummaryIndex: 0 };
      this.reasoning.set(itemId, state);
    }
    return state;
  }
}

function toToolCall(call: CallState): ToolCall {
  return {
    type: 'function',
    id: call.callId,
    function: { name: call.name, arguments: call.arguments || null },
  };
}

/** OpenAI counts cached (and cache-written) tokens inside `input_tokens`; kosong counts them apart. */
export function toTokenUsage(usage: ResponsesUsage): TokenUsage {
  const cacheRead = usage.input_tokens_details?.cached_tokens ?? 0;
  const cacheWrite = usage.input_tokens_details?.cache_write_tokens ?? 0;
  return {
    input_other: Math.max(0, usage.input_tokens - cacheRead - cacheWrite),
    output: usage.output_tokens,
    input_cache_read: cacheRead,
    input_cache_creation: cacheWrite,
  };
}
