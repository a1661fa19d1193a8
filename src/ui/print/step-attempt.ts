import { mergeInPlace } from '../../kosong/merge.js';
import type { Message, StreamedPart, ToolCall } from '../../kosong/message.js';
import type { ToolResult } from '../../kosong/tool.js';

/**
 * One attempt at a step's model call, as print mode sees it: the assistant message assembled from
 * merged parts, and the tool results that arrived, held until they can go out in call order. An
 * attempt is written only once the soul has confirmed it (a retried attempt is dropped whole), so
 * its calls are known in full before any of its tool messages is written.
 */
export class StepAttempt {
  readonly message: Message = { role: 'assistant', content: [] };
  private pending: StreamedPart | null = null;
  private readonly results = new Map<string, ToolResult>();
  /** How many of the calls, in order, have had their result written. */
  private written = 0;
  /** Whether the model call succeeded: from then on the attempt is the step's answer. */
  committed = false;

  get isEmpty(): boolean {
    return this.pending === null && this.message.content.length === 0 && !this.message.tool_calls?.length;
  }

  get calls(): readonly ToolCall[] {
    return this.message.tool_calls ?? [];
  }

  addPart(part: StreamedPart): void {
    if (this.pending === null) this.pending = copy(part);
    else if (!mergeInPlace(this.pending, part)) {
      this.completePart(this.pending);
      this.pending = copy(part);
    }
  }

  /** The model call is over: the part still pending is complete. */
  close(): void {
    if (this.pending) this.completePart(this.pending);
    this.pending = null;
  }

  addResult(result: ToolResult): void {
    this.results.set(result.tool_call_id, result);
  }

  /** The results that may be written now: the next ones in call order that have arrived. */
  takeReadyResults(): ToolResult[] {
    const ready: ToolResult[] = [];
    const calls = this.calls;
    while (this.written < calls.length) {
      const result = this.results.get(calls[this.written]!.id);
      if (!result) break;
      ready.push(result);
      this.written++;
    }
    return ready;
  }

  /** At the end of the step: every result that arrived, in call order, skipping calls without one. */
  takeRemainingResults(): ToolResult[] {
    const rest: ToolResult[] = [];
    for (const call of this.calls.slice(this.written)) {
      const result = this.results.get(call.id);
      if (result) rest.push(result);
    }
    this.written = this.calls.length;
    return rest;
  }

  private completePart(part: StreamedPart): void {
    if (part.type === 'tool_call_part') return;
    if (part.type === 'function') {
      this.message.tool_calls = [...this.calls, { ...part, function: { ...part.function } }];
      return;
    }
    this.message.content.push(part);
  }
}

function copy(part: StreamedPart): StreamedPart {
  return part.type === 'function' ? { ...part, function: { ...part.function } } : { ...part };
}
