import { copyPart, mergeInPlace } from '../../kosong/merge.js';
import { extractText, type Message, type StreamedPart } from '../../kosong/message.js';
import { messageToJSON } from '../../kosong/message-json.js';
import { extractKeyArgument } from '../../toolset/extract-key-argument.js';
import { toolResultToMessage } from '../../toolset/tool-result-message.js';
import { assertNever } from '../../util/assert-never.js';
import type { WireMessage } from '../../wire/message.js';

export type OutputFormat = 'text' | 'stream-json';

export interface PrintSinks {
  /** The answer: assistant text (text format) or JSON lines (stream-json). */
  out(text: string): void;
  /** Progress a person may want to see (tool calls in text format). */
  progress(text: string): void;
}

/**
 * Turns merged wire messages into print-mode output. stream-json writes one OpenAI-style message per
 * line (an assistant message when its step's content is complete, then each tool message), plus
 * PlanDisplay and Notification objects; text writes the assistant's text as it completes and a
 * one-line summary of each tool call to the progress sink.
 */
export class PrintFormatter {
  private assistant: Message | null = null;
  /**
   * The part last received, complete once the next part arrives or the step ends (so the last part
   * of a failed attempt is dropped). Parts come whole from the merged queue: no fragment merging here.
   */
  private pending: StreamedPart | null = null;
  /** Whether `pending` is this formatter's copy; the Wire's parts are shared by every subscriber. */
  private pendingIsCopy = false;
  /** The text of the last assistant message of the turn (for --final-message-only). */
  lastAssistantText = '';

  constructor(
    private readonly format: OutputFormat,
    private readonly sinks: PrintSinks,
    private readonly options: { finalMessageOnly: boolean; workDir: string },
  ) {}

  handle(message: WireMessage): void {
    switch (message.type) {
      case 'ContentPart':
      case 'ToolCall':
      case 'ToolCallPart':
        this.addPart(message.payload);
        return;
      case 'StepBegin':
      case 'TurnEnd':
        this.flushAssistant();
        return;
      case 'StepRetry':
        // The attempt that streamed this content failed: its partial answer is not the answer.
        this.assistant = null;
        this.pending = null;
        return;
      case 'ToolResult': {
        this.flushAssistant();
        if (this.options.finalMessageOnly) return;
        if (this.format === 'stream-json')
          this.sinks.out(`${JSON.stringify(messageToJSON(toolResultToMessage(message.payload)))}\n`);
        else if (message.payload.return_value.is_error)
          this.sinks.progress(`  ✗ ${message.payload.return_value.message}\n`);
        return;
      }
      case 'BtwEnd':
        this.flushAssistant();
        if (this.format === 'stream-json')
          this.sinks.out(`${JSON.stringify({ type: message.type, ...message.payload })}\n`);
        else if (message.payload.error) this.sinks.progress(`Error: ${message.payload.error}\n`);
        else this.sinks.out(`${message.payload.response ?? ''}\n`);
        return;
      case 'PlanDisplay':
      case 'Notification':
        this.flushAssistant();
        if (this.options.finalMessageOnly) return;
        if (this.format === 'stream-json')
          this.sinks.out(`${JSON.stringify({ type: message.type, ...message.payload })}\n`);
        else if (message.type === 'Notification') this.sinks.progress(`[${message.payload.title}]\n`);
        else this.sinks.out(`${message.payload.content}\n`);
        return;
      // Not part of print mode's output.
      case 'TurnBegin':
      case 'SteerInput':
      case 'StepInterrupted':
      case 'HookTriggered':
      case 'HookResolved':
      case 'CompactionBegin':
      case 'CompactionEnd':
      case 'MCPLoadingBegin':
      case 'MCPLoadingEnd':
      case 'StatusUpdate':
      case 'ApprovalResponse':
      case 'SubagentEvent':
      case 'BtwBegin':
        return;
      // Requests are answered by the print runner (run-print.ts), not printed.
      case 'ApprovalRequest':
      case 'ToolCallRequest':
      case 'QuestionRequest':
      case 'HookRequest':
        return;
    }
    assertNever(message, 'wire message');
  }

  /** Writes what the final-message-only modes print, at the end of the run. */
  finish(): void {
    this.flushAssistant();
    if (!this.options.finalMessageOnly || !this.lastAssistantText) return;
    if (this.format === 'stream-json')
      this.sinks.out(`${JSON.stringify({ role: 'assistant', content: this.lastAssistantText })}\n`);
    else this.sinks.out(`${this.lastAssistantText}\n`);
  }

  private addPart(part: StreamedPart): void {
    this.assistant ??= { role: 'assistant', content: [] };
    const pending = this.pending;
    if (pending !== null && this.joins(pending, part)) return;
    if (pending !== null) this.completePart(pending);
    this.pending = part;
    this.pendingIsCopy = false;
  }

  /**
   * A piece of a part arrives on its own only when an event this formatter skips (a subagent's
   * event, an approval) was sent between two pieces of it; the piece then joins the pending part, in
   * a copy. A piece can only continue a part of its own kind (or be a tool call's arguments).
   */
  private joins(pending: StreamedPart, piece: StreamedPart): boolean {
    if (piece.type !== pending.type && piece.type !== 'tool_call_part') return false;
    const own = this.pendingIsCopy ? pending : copyPart(pending);
    if (!mergeInPlace(own, piece)) return false;
    this.pending = own;
    this.pendingIsCopy = true;
    return true;
  }

  private completePart(part: StreamedPart): void {
    const assistant = this.assistant!;
    if (part.type === 'tool_call_part') return;
    if (part.type === 'function') {
      assistant.tool_calls = [...(assistant.tool_calls ?? []), { ...part, function: { ...part.function } }];
      if (this.format === 'text' && !this.options.finalMessageOnly) {
        const key = extractKeyArgument(
          part.function.name,
          part.function.arguments ?? '',
          this.options.workDir,
        );
        this.sinks.progress(`• ${part.function.name}${key ? ` ${key}` : ''}\n`);
      }
      return;
    }
    assistant.content.push(part);
    if (this.format === 'text' && part.type === 'text' && !this.options.finalMessageOnly)
      this.sinks.out(part.text);
  }

  private flushAssistant(): void {
    if (this.pending) this.completePart(this.pending);
    this.pending = null;
    const assistant = this.assistant;
    this.assistant = null;
    if (!assistant || (assistant.content.length === 0 && !assistant.tool_calls?.length)) return;
    const text = extractText(assistant);
    this.lastAssistantText = text;
    if (this.options.finalMessageOnly) return;
    if (this.format === 'stream-json') this.sinks.out(`${JSON.stringify(messageToJSON(assistant))}\n`);
    else if (text && !text.endsWith('\n')) this.sinks.out('\n');
  }
}
