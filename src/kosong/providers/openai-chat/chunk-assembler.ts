import { randomUUID } from 'node:crypto';
import { AnswerBudget } from '../../answer-limit.js';
import { ChatProviderError } from '../../errors.js';
import { JsonCompleteness } from '../../json-completeness.js';
import type { ProviderPart, StreamedPart, TokenUsage, ToolCall } from '../../message.js';
import type { ChatChunk, ToolCallDelta } from './chat-chunk.js';
import { convertUsage } from './usage.js';

interface CallState {
  id: string;
  name: string;
  /** Arguments gathered while the call waited in the backlog. */
  arguments: string | null;
  json: JsonCompleteness;
  /** Its header went out: later fragments follow it as `tool_call_part`s. */
  emitted: boolean;
}

type Waiting = { kind: 'part'; part: StreamedPart } | { kind: 'call'; call: CallState };

/**
 * Turns Chat Completions chunks into kosong's streamed parts.
 *
 * `generate` knows a tool call has ended when the next part does not merge into it, and it sends
 * every `tool_call_part` to the call streamed just before it. So parts must leave here one call at a
 * time. Servers stream parallel calls one after the other, index by index: then every part goes out
 * at once and each call is dispatched as soon as the next one starts. If a server interleaves the
 * indices, whatever arrives while the open call's arguments are not yet a closed JSON value waits in
 * a backlog, in arrival order, and goes out once they are (or when the choice or stream ends).
 */
export class ChatChunkAssembler {
  id: string | null = null;
  usage: TokenUsage | null = null;
  private readonly calls = new Map<number, CallState>();
  /** The call `generate` currently holds as its pending part. */
  private open: CallState | null = null;
  private readonly backlog: Waiting[] = [];
  private out: ProviderPart[] = [];
  private lastIndex = 0;

  /**
   * `reasoningKey`: the delta field that carries reasoning (`''` for none). `budget`: every delta
   * counts as it arrives, for the backlog holds parts `generate` has not counted yet (an endless
   * answer behind a call whose arguments never close).
   */
  constructor(
    private readonly reasoningKey: string,
    private readonly budget: AnswerBudget = new AnswerBudget(),
  ) {}

  /** The parts that may go out after this chunk. */
  push(chunk: ChatChunk): ProviderPart[] {
    if (chunk.id) this.id = chunk.id;
    if (chunk.usage) this.usage = convertUsage(chunk.usage);
    const choice = chunk.choices?.find((c) => (c.index ?? 0) === 0);
    if (choice) {
      if (choice.usage && !chunk.usage) this.usage = convertUsage(choice.usage);
      const delta = choice.delta;
      if (delta) {
        const reasoning = this.reasoningKey ? delta[this.reasoningKey] : undefined;
        if (typeof reasoning === 'string' && reasoning) this.acceptPart({ type: 'think', think: reasoning });
        if (delta.content) this.acceptPart({ type: 'text', text: delta.content });
        for (const toolDelta of delta.tool_calls ?? []) this.acceptToolDelta(toolDelta);
      }
      if (choice.finish_reason) this.endChoice();
    }
    return this.take();
  }

  /** The parts still waiting when the stream has ended. */
  finish(): ProviderPart[] {
    this.flush(true);
    return this.take();
  }

  /**
   * `finish_reason`: nothing more comes for this choice, so the open call's arguments are done and
   * it is dispatched now, whether or not they parse (usage and `[DONE]` may still take a while).
   */
  private endChoice(): void {
    this.flush(true);
    if (this.open === null) return;
    this.open = null;
    this.out.push({ type: 'tool_call_end' });
  }

  private take(): ProviderPart[] {
    const parts = this.out;
    this.out = [];
    return parts;
  }

  private get mustWait(): boolean {
    return this.backlog.length > 0 || (this.open !== null && !this.open.json.isClosed);
  }

  private acceptPart(part: StreamedPart): void {
    this.budget.spend(part);
    if (this.mustWait) this.backlog.push({ kind: 'part', part });
    else this.emitPart(part);
  }

  private acceptToolDelta(delta: ToolCallDelta): void {
    const index = delta.index ?? this.lastIndex;
    this.lastIndex = index;
    const fragment = delta.function?.arguments ?? '';
    let call = this.calls.get(index);
    const name = delta.function?.name;
    this.budget.spendChars(fragment.length + (name?.length ?? 0) + (delta.id?.length ?? 0));
    // A new id at a known index is a new call: some servers number every call 0. A call whose name
    // is empty is still a call: dropped, it would get no result and leave no trace in the context.
    const startsCall = name ? true : name === '' && Boolean(delta.id);
    if (startsCall && (call === undefined || (delta.id && delta.id !== call.id))) {
      const json = new JsonCompleteness();
      json.feed(fragment);
      call = {
        id: delta.id || randomUUID(),
        name: name ?? '',
        arguments: delta.function?.arguments ?? null,
        emitted: false,
        json,
      };
      this.calls.set(index, call);
      if (this.mustWait) this.backlog.push({ kind: 'call', call });
      else this.emitCall(call);
      return;
    }
    if (call === undefined || fragment === '') return; // nothing to attach it to, or nothing in it
    if (call === this.open) {
      call.json.feed(fragment);
      this.out.push({ type: 'tool_call_part', arguments_part: fragment });
      this.flush(false);
    } else if (!call.emitted) {
      call.json.feed(fragment);
      call.arguments = (call.arguments ?? '') + fragment;
    } else if (fragment.trim() !== '') {
      throw new ChatProviderError(
        `The API sent more arguments for tool call ${call.id} (${call.name}) after other output had followed it.`,
      );
    }
  }

  /** Sends out what waits in the backlog: all of it when the choice has ended, else while calls close. */
  private flush(ended: boolean): void {
    while (this.backlog.length > 0 && (ended || this.open === null || this.open.json.isClosed)) {
      const next = this.backlog.shift()!;
      if (next.kind === 'part') this.emitPart(next.part);
      else this.emitCall(next.call);
    }
  }

  private emitPart(part: StreamedPart): void {
    this.open = null;
    this.out.push(part);
  }

  private emitCall(call: CallState): void {
    const header: ToolCall = {
      type: 'function',
      id: call.id,
      function: { name: call.name, arguments: call.arguments },
    };
    call.emitted = true;
    call.arguments = null;
    this.open = call;
    this.out.push(header);
  }
}
