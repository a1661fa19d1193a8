import { mergeInPlace } from '../../kosong/merge.js';
import type { StreamedPart, ToolCall } from '../../kosong/message.js';
import { extractKeyArgument } from '../../toolset/extract-key-argument.js';
import type { WireMessage } from '../../wire/message.js';

/**
 * Renders raw wire messages for a person at a terminal: the answer's text as it streams, one line per
 * tool call with its key argument, the outcome of each tool, retries and compaction.
 */
export class ShellRenderer {
  private pendingCall: StreamedPart | null = null;
  private atLineStart = true;

  constructor(
    private readonly write: (text: string) => void,
    private readonly workDir: string,
  ) {}

  handle(message: WireMessage): void {
    switch (message.type) {
      case 'ContentPart':
        this.completeCall();
        if (message.payload.type === 'text') this.text(message.payload.text);
        return;
      case 'ToolCall':
        this.completeCall();
        this.pendingCall = { ...message.payload, function: { ...message.payload.function } };
        return;
      case 'ToolCallPart':
        if (this.pendingCall) mergeInPlace(this.pendingCall, message.payload);
        return;
      case 'ToolResult': {
        this.completeCall();
        const value = message.payload.return_value;
        const brief = value.display.find((block) => block.type === 'brief')?.text;
        const summary = typeof brief === 'string' && brief ? brief : value.message;
        this.line(`  ${value.is_error ? '✗' : '✓'} ${summary || (value.is_error ? 'failed' : 'done')}`);
        return;
      }
      case 'StepRetry':
        this.pendingCall = null;
        this.line(
          `(retrying after ${message.payload.error_type}: attempt ${message.payload.next_attempt} of ${message.payload.max_attempts})`,
        );
        return;
      case 'CompactionBegin':
        this.line('(compacting the context…)');
        return;
      case 'StepBegin':
      case 'TurnEnd':
        this.completeCall();
        return;
      case 'Notification':
        this.line(`[${message.payload.title}]`);
        return;
      case 'PlanDisplay':
        this.line(message.payload.content);
        return;
      default:
        return;
    }
  }

  /** Ends the current output line, if one is open. */
  endLine(): void {
    this.completeCall();
    if (!this.atLineStart) this.write('\n');
    this.atLineStart = true;
  }

  private completeCall(): void {
    const call = this.pendingCall;
    this.pendingCall = null;
    if (call?.type !== 'function') return;
    this.line(`• ${describeCall(call, this.workDir)}`);
  }

  private text(text: string): void {
    if (!text) return;
    this.write(text);
    this.atLineStart = text.endsWith('\n');
  }

  private line(text: string): void {
    if (!this.atLineStart) this.write('\n');
    this.write(`${text}\n`);
    this.atLineStart = true;
  }
}

function describeCall(call: ToolCall, workDir: string): string {
  const key = extractKeyArgument(call.function.name, call.function.arguments ?? '', workDir);
  return key ? `${call.function.name} ${key}` : call.function.name;
}
