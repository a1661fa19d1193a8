import type * as acp from '@agentclientprotocol/sdk';
import type { SessionUpdate, ToolCallContent, ToolKind } from '@agentclientprotocol/sdk';
import { parseDataUrl } from '../../kosong/data-url.js';
import { type ContentPart, extractText } from '../../kosong/message.js';
import type { DisplayBlock, ToolReturnValue } from '../../kosong/tool.js';
import { MODEL_WAITING_TYPE } from '../../soul/model-waiting.js';
import { assertNever } from '../../util/assert-never.js';
import {
  revealInvisible,
  revealInvisibleLines,
  revealInvisibleOneLine,
} from '../../util/reveal-invisible.js';
import { extractKeyArgument } from '../../wire/key-argument.js';
import type { WireMessage } from '../../wire/message.js';

/** How each built-in tool is shown to an ACP client (icons, grouping). Others are `other`. */
const TOOL_KINDS: Record<string, ToolKind> = {
  ReadFile: 'read',
  ReadMediaFile: 'read',
  WriteFile: 'edit',
  StrReplaceFile: 'edit',
  Glob: 'search',
  Grep: 'search',
  Shell: 'execute',
  FetchURL: 'fetch',
  SearchWeb: 'fetch',
  Think: 'think',
  EnterPlanMode: 'switch_mode',
  ExitPlanMode: 'switch_mode',
};

export function toolKind(name: string): ToolKind {
  return TOOL_KINDS[name] ?? 'other';
}

/**
 * `Shell: ls -la`: the tool and the argument that says what the call does. The argument is the
 * model's: its invisible characters and bidi controls show as markers, as in every front end.
 */
export function toolTitle(name: string, argumentsJson: string | null, workDir: string): string {
  const key = extractKeyArgument(name, argumentsJson, workDir);
  return key ? revealInvisible(`${name}: ${key}`) : name;
}

/**
 * Display blocks an ACP client can show: diffs as diffs, the rest as text. What the editor shows
 * is what the person approves or reads, so it is the revealed text (issue #24): a bidi override
 * shows as `⟨U+202E⟩` instead of reordering the line, and blank-line padding as `⟨300 blank
 * lines⟩`. A diff keeps its lines (each one revealed) so its line numbers stay the file's.
 */
export function displayContent(display: readonly DisplayBlock[]): ToolCallContent[] {
  const content: ToolCallContent[] = [];
  for (const block of display) {
    const { path, old_text, new_text, command } = block;
    if (block.type === 'diff' && typeof path === 'string' && typeof new_text === 'string') {
      content.push({
        type: 'diff',
        path: revealInvisibleOneLine(path),
        oldText: typeof old_text === 'string' ? revealInvisibleLines(old_text) : null,
        newText: revealInvisibleLines(new_text),
      });
    } else if (block.type === 'shell' && typeof command === 'string') {
      content.push(textContent(`$ ${revealInvisible(command)}`));
    }
  }
  return content;
}

function textContent(text: string): ToolCallContent {
  return { type: 'content', content: { type: 'text', text } };
}

/**
 * A tool's output and message as the editor shows them: revealed, as the permission content is
 * (displayContent), so an output cannot reorder what the person reads or scroll the rest away.
 */
function outputText(value: ToolReturnValue): string {
  const output =
    typeof value.output === 'string' ? value.output : extractText({ content: value.output }, '\n');
  // Each revealed on its own: the blank line between them is ours.
  return [output, value.message]
    .filter((text) => text.trim() !== '')
    .map((text) => revealInvisible(text))
    .join('\n\n');
}

/**
 * A display block saying the editor already shows the tool's output (in its own terminal): the
 * final `tool_call_update` then leaves the call's content as it is (Kimi CLI's block name).
 */
export const HIDE_OUTPUT_BLOCK: DisplayBlock = { type: 'acp/hide_output' };

const TODO_STATUS = { pending: 'pending', in_progress: 'in_progress', done: 'completed' } as const;

/** The session modes an editor can pick: plan mode is the `plan` mode. */
export const SESSION_MODES: acp.SessionMode[] = [
  {
    id: 'default',
    name: 'Default',
    description: 'Reads, edits and runs commands, asking before anything with side effects.',
  },
  {
    id: 'plan',
    name: 'Plan',
    description: 'Reads and plans only, then asks you to approve the plan before changing anything.',
  },
];

export function modeIdOf(planMode: boolean): string {
  return planMode ? 'plan' : 'default';
}

export interface TranslatorOptions {
  /** Send the user's own input too (replaying a loaded session). */
  echoUserInput?: boolean;
  /** Plan mode as the editor last heard it; a change is announced as a `current_mode_update`. */
  planMode?: boolean;
}

/**
 * Turns the wire messages of a turn into ACP session updates: text and thinking stream as message
 * and thought chunks, each tool call becomes a `tool_call` that a `tool_call_update` completes with
 * its output (diffs as diffs), a todo list becomes the session's plan, a plan submitted for approval
 * is shown as a message, and entering or leaving plan mode changes the session mode. Requests are
 * not handled here.
 */
export class SessionUpdateTranslator {
  private readonly argumentsById = new Map<string, string>();
  private readonly namesById = new Map<string, string>();
  private lastCallId: string | null = null;
  private readonly echoUserInput: boolean;
  private planMode: boolean | undefined;

  constructor(
    private readonly workDir: string,
    options: TranslatorOptions = {},
  ) {
    this.echoUserInput = options.echoUserInput ?? false;
    this.planMode = options.planMode;
  }

  translate(message: WireMessage): SessionUpdate[] {
    switch (message.type) {
      case 'TurnBegin':
        return this.echoUserInput ? userInputUpdates(message.payload.user_input) : [];
      case 'ContentPart':
        return contentUpdates(message.payload, 'agent_message_chunk');
      case 'ToolCall': {
        const call = message.payload;
        this.lastCallId = call.id;
        this.namesById.set(call.id, call.function.name);
        this.argumentsById.set(call.id, call.function.arguments ?? '');
        return [
          {
            sessionUpdate: 'tool_call',
            toolCallId: call.id,
            title: toolTitle(call.function.name, call.function.arguments, this.workDir),
            kind: toolKind(call.function.name),
            status: 'pending',
          },
        ];
      }
      case 'ToolCallPart': {
        const id = this.lastCallId;
        if (id !== null) {
          const sofar = this.argumentsById.get(id) ?? '';
          this.argumentsById.set(id, sofar + (message.payload.arguments_part ?? ''));
        }
        return [];
      }
      case 'ToolResult': {
        const { tool_call_id: id, return_value: value } = message.payload;
        const name = this.namesById.get(id);
        const title = name
          ? { title: toolTitle(name, this.argumentsById.get(id) ?? null, this.workDir) }
          : {};
        const status = value.is_error ? ('failed' as const) : ('completed' as const);
        // A replay has no terminal to show: it shows the output instead.
        if (!this.echoUserInput && value.display.some((block) => block.type === HIDE_OUTPUT_BLOCK.type)) {
          return [{ sessionUpdate: 'tool_call_update', toolCallId: id, status, ...title }];
        }
        const output = outputText(value);
        const content = [...displayContent(value.display), ...(output ? [textContent(output)] : [])];
        return [
          {
            sessionUpdate: 'tool_call_update',
            toolCallId: id,
            status,
            ...title,
            content,
          },
          ...planUpdates(value.display),
        ];
      }
      case 'PlanDisplay': {
        const { content, file_path } = message.payload;
        const text = `Plan (${file_path}):\n\n${content.trimEnd()}\n\n`;
        return [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } }];
      }
      case 'BtwEnd': {
        const { response, error } = message.payload;
        const text = error ? `Error: ${error}` : (response ?? '');
        return text ? [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } }] : [];
      }
      case 'Notification': {
        // The editor shows a silent model as a passing thought; other notifications stay out of the chat.
        if (message.payload.type !== MODEL_WAITING_TYPE) return [];
        const text = `(${message.payload.title})\n`;
        return [{ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text } }];
      }
      case 'StatusUpdate': {
        const planMode = message.payload.plan_mode;
        if (typeof planMode !== 'boolean' || planMode === this.planMode) return [];
        this.planMode = planMode;
        return [{ sessionUpdate: 'current_mode_update', currentModeId: modeIdOf(planMode) }];
      }
      // Nothing an editor shows: the turn's and steps' framing, hooks, compaction, MCP loading,
      // approvals (answered through permission requests), subagents' inner events.
      case 'SteerInput':
      case 'TurnEnd':
      case 'StepBegin':
      case 'StepInterrupted':
      case 'StepRetry':
      case 'HookTriggered':
      case 'HookResolved':
      case 'CompactionBegin':
      case 'CompactionEnd':
      case 'MCPLoadingBegin':
      case 'MCPLoadingEnd':
      case 'ApprovalResponse':
      case 'SubagentEvent':
      case 'BtwBegin':
      // The /rewind command's own text (a message chunk) already says what it restored.
      case 'RewindDone':
      // The goal's state is the session's; ACP has no update for it (the command's text says it).
      case 'GoalUpdated':
      // The turn's prompt follows as a user message; ACP has no update for where it came from.
      case 'ScheduleFired':
      // Live output: the tool call's update with its result carries what the command printed.
      case 'ToolOutput':
        return [];
      // Requests are answered by the ACP server (acp-server.ts), not translated.
      case 'ApprovalRequest':
      case 'ToolCallRequest':
      case 'QuestionRequest':
      case 'HookRequest':
        return [];
    }
    return assertNever(message, 'wire message');
  }
}

function contentUpdates(
  part: ContentPart,
  textKind: 'agent_message_chunk' | 'user_message_chunk',
): SessionUpdate[] {
  switch (part.type) {
    case 'text':
      return part.text ? [{ sessionUpdate: textKind, content: { type: 'text', text: part.text } }] : [];
    case 'think':
      return part.think && textKind === 'agent_message_chunk'
        ? [{ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: part.think } }]
        : [];
    case 'image_url': {
      const inline = parseDataUrl(part.image_url.url);
      return inline ? [{ sessionUpdate: textKind, content: { type: 'image', ...inline } }] : [];
    }
    // Audio and video by URL have no ACP content block to become.
    case 'audio_url':
    case 'video_url':
      return [];
  }
  return assertNever(part, 'content part');
}

function userInputUpdates(input: string | ContentPart[]): SessionUpdate[] {
  if (typeof input === 'string') {
    return input ? [{ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: input } }] : [];
  }
  return input.flatMap((part) => contentUpdates(part, 'user_message_chunk'));
}

function planUpdates(display: readonly DisplayBlock[]): SessionUpdate[] {
  const items = display.find((block) => block.type === 'todo' && Array.isArray(block.items))?.items;
  if (!Array.isArray(items)) return [];
  const entries = items.flatMap((item: { title?: unknown; status?: unknown }) =>
    typeof item.title === 'string' && typeof item.status === 'string' && item.status in TODO_STATUS
      ? [
          {
            content: item.title,
            priority: 'medium' as const,
            status: TODO_STATUS[item.status as keyof typeof TODO_STATUS],
          },
        ]
      : [],
  );
  return [{ sessionUpdate: 'plan', entries }];
}
