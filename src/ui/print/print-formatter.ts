import { extractText } from '../../kosong/message.js';
import { messageToJSON } from '../../kosong/message-json.js';
import type { ToolResult } from '../../kosong/tool.js';
import { toolResultToMessage } from '../../toolset/tool-result-message.js';
import { assertNever } from '../../util/assert-never.js';
import { sanitizeForTerminal, type TerminalSafe, terminalText as t } from '../../util/sanitize-terminal.js';
import { extractKeyArgument } from '../../wire/key-argument.js';
import type { WireMessage } from '../../wire/message.js';
import { type PrintText, toJsonLine } from './print-text.js';
import { StepAttempt } from './step-attempt.js';

/** Text of the model, a tool or a server, made safe where it enters the output. */
const safe = sanitizeForTerminal;

export type OutputFormat = 'text' | 'stream-json';

export interface PrintSinks {
  /** The answer: assistant text (text format) or JSON lines (stream-json). */
  out(text: PrintText): void;
  /** Progress a person may want to see (tool calls in text format). */
  progress(text: TerminalSafe): void;
}

/**
 * Turns merged wire messages into print-mode output. Only the attempt of a step whose model call
 * succeeded is written: the step's StatusUpdate confirms it, a StepRetry drops it. stream-json then
 * writes one OpenAI-style message per line — the step's assistant message with all its calls, then
 * its tool messages in call order — plus PlanDisplay and Notification objects; text writes the
 * assistant's text, a one-line summary of each tool call and each failed result to the progress sink.
 */
export class PrintFormatter {
  private attempt = new StepAttempt();
  /**
   * Where the soul is: between StepBegin and the step's status update its model call is running
   * (content then belongs to an attempt that may still fail); elsewhere content is the soul's own
   * (a blocked prompt's reason, a slash command's answer) and is written as it is.
   */
  private phase: 'idle' | 'calling' | 'called' = 'idle';
  /** The current attempt holds content sent outside a model call. */
  private loose = false;
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
        if (this.phase !== 'calling' && !this.loose) {
          this.endStep();
          this.loose = true;
        } else if (this.phase === 'calling' && this.attempt.committed) this.endStep();
        this.attempt.addPart(message.payload);
        return;
      case 'StatusUpdate':
        // The step's own status update comes once its model call has succeeded (it carries the
        // usage, null when the provider reported none); others (plan mode, MCP) only report a setting.
        if (this.phase === 'calling' && message.payload.token_usage !== undefined) {
          this.commit();
          this.phase = 'called';
        }
        return;
      case 'StepBegin':
        this.endStep();
        this.phase = 'calling';
        return;
      case 'TurnEnd':
      case 'StepInterrupted':
        this.endStep();
        this.phase = 'idle';
        return;
      case 'StepRetry':
        // The attempt that streamed this content failed: its partial answer is not the answer.
        this.attempt = new StepAttempt();
        if (this.format === 'text' && !this.options.finalMessageOnly) {
          const { error_type, next_attempt, max_attempts } = message.payload;
          this.sinks.progress(
            t`[retrying after ${safe(error_type)}: attempt ${next_attempt} of ${max_attempts}]\n`,
          );
        }
        return;
      case 'ToolResult':
        this.attempt.addResult(message.payload);
        if (this.attempt.committed) this.writeResults(this.attempt.takeReadyResults());
        return;
      case 'BtwEnd':
        if (this.format === 'stream-json')
          this.sinks.out(toJsonLine({ type: message.type, ...message.payload }));
        else if (message.payload.error) this.sinks.progress(t`Error: ${safe(message.payload.error)}\n`);
        else this.sinks.out(t`${safe(message.payload.response ?? '')}\n`);
        return;
      case 'RewindDone':
      case 'GoalUpdated':
      // Print mode ends with its prompt, so no schedule fires in it; a stream-json reader gets the record.
      case 'ScheduleFired':
        // The command's own text says what it did; stream-json readers also get the record.
        if (this.format === 'stream-json' && !this.options.finalMessageOnly)
          this.sinks.out(toJsonLine({ type: message.type, ...message.payload }));
        return;
      case 'PlanDisplay':
      case 'Notification':
        if (this.options.finalMessageOnly) return;
        if (this.format === 'stream-json')
          this.sinks.out(toJsonLine({ type: message.type, ...message.payload }));
        else if (message.type === 'Notification') this.sinks.progress(t`[${safe(message.payload.title)}]\n`);
        else this.sinks.out(t`${safe(message.payload.content)}\n`);
        return;
      case 'TurnBegin':
      case 'SteerInput':
      case 'HookTriggered':
      case 'HookResolved':
      case 'CompactionBegin':
      case 'CompactionEnd':
      case 'MCPLoadingBegin':
      case 'MCPLoadingEnd':
      case 'ApprovalResponse':
      case 'SubagentEvent':
      case 'BtwBegin':
      // Live output is for a screen; the result follows.
      case 'ToolOutput':
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
    this.endStep();
    if (!this.options.finalMessageOnly || !this.lastAssistantText) return;
    if (this.format === 'stream-json')
      this.sinks.out(toJsonLine({ role: 'assistant', content: this.lastAssistantText }));
    else this.sinks.out(t`${safe(this.lastAssistantText)}\n`);
  }

  /** The model call of this attempt succeeded: write its message, then the results already in. */
  private commit(): void {
    const attempt = this.attempt;
    if (attempt.committed || attempt.isEmpty) return;
    attempt.close();
    attempt.committed = true;
    const assistant = attempt.message;
    const text = extractText(assistant);
    this.lastAssistantText = text;
    if (!this.options.finalMessageOnly) {
      if (this.format === 'stream-json') this.sinks.out(toJsonLine(messageToJSON(assistant)));
      else this.writeText(text, attempt);
    }
    this.writeResults(attempt.takeReadyResults());
  }

  private writeText(text: string, attempt: StepAttempt): void {
    if (text) this.sinks.out(text.endsWith('\n') ? safe(text) : t`${safe(text)}\n`);
    for (const call of attempt.calls) {
      const key = extractKeyArgument(call.function.name, call.function.arguments ?? '', this.options.workDir);
      this.sinks.progress(t`\u2022 ${safe(call.function.name)}${key ? t` ${safe(key)}` : t``}\n`);
    }
  }

  /** The step is over: results still held go out; an attempt never confirmed is dropped. */
  private endStep(): void {
    if (this.loose) this.commit();
    this.loose = false;
    const attempt = this.attempt;
    this.attempt = new StepAttempt();
    if (attempt.committed) this.writeResults(attempt.takeRemainingResults());
  }

  private writeResults(results: readonly ToolResult[]): void {
    if (this.options.finalMessageOnly) return;
    for (const result of results) {
      if (this.format === 'stream-json')
        this.sinks.out(toJsonLine(messageToJSON(toolResultToMessage(result))));
      else if (result.return_value.is_error)
        this.sinks.progress(t`  \u2717 ${safe(result.return_value.message)}\n`);
    }
  }
}
