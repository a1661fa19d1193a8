import { mergeInPlace } from '../../kosong/merge.js';
import type { StreamedPart } from '../../kosong/message.js';
import { assertNever } from '../../util/assert-never.js';
import { revealInvisible } from '../../util/reveal-invisible.js';
import {
  sanitizeForTerminal as clean,
  type TerminalSafe,
  terminalText as t,
} from '../../util/sanitize-terminal.js';
import type { StatusUpdate } from '../../wire/events.js';
import { extractKeyArgument } from '../../wire/key-argument.js';
import type { WireMessage } from '../../wire/message.js';
import { userInputText } from '../../wire/user-input-text.js';
import { type AnsiStyle, ansiStyle } from '../common/ansi-style.js';
import { goalLineText } from '../common/goal-line.js';
import { hiddenLinesText, isCommandTool, previewOutput } from '../common/output-preview.js';
import { scheduleLineText } from '../common/schedule-line.js';

/**
 * How thinking is shown: streamed as it comes (dim), as one "(thinking…)" line per stretch of it, or
 * not at all (output that is not a terminal).
 */
export type ThinkingDisplay = 'stream' | 'indicator' | 'off';

export interface ShellRendererOptions {
  style?: AnsiStyle | undefined;
  thinking?: ThinkingDisplay | undefined;
}

/**
 * Renders raw wire messages for a person at a terminal (every text from the model or a tool
 * sanitised, so its control characters show instead of acting): thinking and the answer's text as they
 * stream, one line per tool call with its key argument, the outcome of each tool, retries and
 * compaction; it keeps the last status (context use, plan mode) for the line after a turn.
 */
export class ShellRenderer {
  private lastGoalLine = '';
  /** The turn that follows a ScheduleFired was not typed: its prompt is shown. */
  private echoNextPrompt = false;
  private pendingCall: StreamedPart | null = null;
  private atLineStart = true;
  /** What the open stretch of streamed content is, so thinking and answer get lines of their own. */
  private streaming: 'text' | 'think' | null = null;
  private readonly style: AnsiStyle;
  private readonly thinking: ThinkingDisplay;
  private readonly status: StatusUpdate = {};
  /** The tool name of each call announced, for its result (a command's output is shown folded). */
  private readonly callNames = new Map<string, string>();

  constructor(
    private readonly write: (text: TerminalSafe) => void,
    private readonly workDir: string,
    options: ShellRendererOptions = {},
  ) {
    this.style = options.style ?? ansiStyle(false);
    this.thinking = options.thinking ?? 'off';
  }

  handle(message: WireMessage): void {
    switch (message.type) {
      case 'ContentPart':
        this.completeCall();
        if (message.payload.type === 'text') this.text(message.payload.text);
        else if (message.payload.type === 'think') this.think(message.payload.think);
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
        const mark = value.is_error ? this.style.error(t`\u2717`) : this.style.ok(t`\u2713`);
        this.line(t`  ${mark} ${clean(summary || (value.is_error ? 'failed' : 'done'))}`);
        const name = this.callNames.get(message.payload.tool_call_id);
        if (name && isCommandTool(name) && typeof value.output === 'string') this.foldedOutput(value.output);
        return;
      }
      case 'StatusUpdate':
        for (const [key, value] of Object.entries(message.payload)) {
          if (value !== null && value !== undefined) (this.status as Record<string, unknown>)[key] = value;
        }
        return;
      case 'StepRetry':
        this.pendingCall = null;
        this.line(
          t`(retrying after ${clean(message.payload.error_type)}: attempt ${message.payload.next_attempt} of ${message.payload.max_attempts})`,
        );
        return;
      case 'CompactionBegin':
        this.line(t`(compacting the context\u2026)`);
        return;
      case 'StepBegin':
      case 'TurnEnd':
        this.completeCall();
        this.streaming = null;
        return;
      case 'Notification':
        this.line(t`[${clean(message.payload.title)}]`);
        return;
      case 'PlanDisplay':
        this.line(clean(message.payload.content));
        return;
      case 'BtwEnd': {
        const { response, error } = message.payload;
        this.line(error ? t`${this.style.error(t`Error:`)} ${clean(error)}` : clean(response ?? ''));
        return;
      }
      case 'GoalUpdated': {
        // Token counts change every step: a line only when the state or the turn count moves.
        const text = goalLineText(message.payload);
        if (text !== this.lastGoalLine) this.line(clean(text));
        this.lastGoalLine = text;
        return;
      }
      case 'ScheduleFired':
        this.line(clean(scheduleLineText(message.payload)));
        this.echoNextPrompt = true;
        return;
      // Nobody typed a scheduled prompt: it is shown (made terminal-safe) as if it had been.
      case 'TurnBegin':
        // Nobody typed it (the model may have written it): nothing in it stays hidden.
        if (this.echoNextPrompt)
          this.line(t`\u203a ${revealInvisible(userInputText(message.payload.user_input))}`);
        this.echoNextPrompt = false;
        return;
      // The prompt echoes the user's input; the rest has nothing to show in a line shell.
      case 'SteerInput':
      case 'StepInterrupted':
      case 'HookTriggered':
      case 'HookResolved':
      case 'CompactionEnd':
      case 'MCPLoadingBegin':
      case 'MCPLoadingEnd':
      case 'ApprovalResponse':
      case 'SubagentEvent':
      case 'BtwBegin':
      // The rewind's result line is the session's own text, said just before this event.
      case 'RewindDone':
      // One line per call: live output is the terminal UI's.
      case 'ToolOutput':
        return;
      // Requests are answered by the shell's turn loop (run-shell.ts), not rendered.
      case 'ApprovalRequest':
      case 'ToolCallRequest':
      case 'QuestionRequest':
      case 'HookRequest':
        return;
    }
    assertNever(message, 'wire message');
  }

  /** Ends the current output line, if one is open. */
  endLine(): void {
    this.completeCall();
    if (!this.atLineStart) this.write(t`\n`);
    this.atLineStart = true;
    this.streaming = null;
  }

  /**
   * The status after the last step: context in use (`context 12% (31.2k of 262.1k tokens)`) and
   * plan mode; null before any step reported one.
   */
  statusLine(): TerminalSafe | null {
    const {
      context_usage: usage,
      context_tokens: used,
      max_context_tokens: max,
      plan_mode: plan,
    } = this.status;
    const parts: string[] = [];
    if (typeof usage === 'number') {
      const amounts = typeof used === 'number' && max ? ` (${tokens(used)} of ${tokens(max)} tokens)` : '';
      parts.push(`context ${Math.round(usage * 100)}%${amounts}`);
    }
    if (plan === true) parts.push('plan mode');
    // Numbers and our own words only.
    return parts.length > 0 ? this.style.dim(parts.join(' · ') as TerminalSafe) : null;
  }

  private completeCall(): void {
    const call = this.pendingCall;
    this.pendingCall = null;
    if (call?.type !== 'function') return;
    const { name, arguments: args } = call.function;
    this.callNames.set(call.id, name);
    const key = extractKeyArgument(name, args ?? '', this.workDir);
    const shownKey = key ? t` ${this.style.dim(clean(key))}` : t``;
    this.line(t`\u2022 ${this.style.accent(clean(name))}${shownKey}`);
  }

  /** A command's first and last lines under its result line, the rest counted. */
  private foldedOutput(output: string): void {
    const { head, hidden, tail } = previewOutput(output);
    for (const text of head) this.line(t`    ${this.style.dim(clean(text))}`);
    if (hidden > 0) this.line(t`    ${this.style.accent(clean(hiddenLinesText(hidden)))}`);
    for (const text of tail) this.line(t`    ${this.style.dim(clean(text))}`);
  }

  private text(text: string): void {
    if (!text) return;
    if (this.streaming === 'think') this.endLine();
    this.streaming = 'text';
    this.write(clean(text));
    this.atLineStart = text.endsWith('\n');
  }

  private think(text: string): void {
    if (!text || this.thinking === 'off') return;
    const starting = this.streaming !== 'think';
    if (starting) this.endLine();
    this.streaming = 'think';
    if (this.thinking === 'indicator') {
      if (starting) this.line(this.style.thought(t`(thinking\u2026)`));
      return;
    }
    this.write(this.style.thought(clean(text)));
    this.atLineStart = text.endsWith('\n');
  }

  private line(text: TerminalSafe): void {
    if (!this.atLineStart) this.write(t`\n`);
    this.write(t`${text}\n`);
    this.atLineStart = true;
  }
}

/** 31234 → `31.2k`. */
function tokens(count: number): string {
  return count >= 1000 ? `${(count / 1000).toFixed(1)}k` : String(count);
}
