import { assertNever } from '../../../util/assert-never.js';
import { userInputText } from '../../../wire/user-input-text.js';
import { goalLineText } from '../../common/goal-line.js';
import type { ToolReturnValue, UserInput, WireEvent } from './wire-types.js';

/**
 * The items of one turn of the page's conversation (text, thinking, tool calls with their live output
 * and results, subagents, notices), built from the item-level wire events by a pure function.
 */

/** How much of a running call's live output the page keeps (it shows the last lines). */
const LIVE_OUTPUT_KEPT_CHARS = 8000;

export interface ToolCallItem {
  kind: 'tool';
  id: string;
  name: string;
  /** The arguments as streamed so far (JSON text). */
  args: string;
  result: ToolReturnValue | null;
  /** What the running call has printed so far (its latest characters; `ToolOutput`), as text. */
  liveOutput: string;
  /** The subagents this call started (one for Agent, several for AgentSwarm), each with its own items. */
  subagents: SubagentView[];
}

export type ConversationItem =
  | { kind: 'text'; text: string }
  | { kind: 'think'; text: string }
  | ToolCallItem
  | { kind: 'notice'; tone: 'info' | 'warn'; text: string }
  | { kind: 'steer'; text: string };

export interface SubagentView {
  agentId: string | null;
  type: string | null;
  items: ConversationItem[];
}

/** What an event does to a list of conversation items (a turn's, or a subagent's). */
export function applyItemEvent(items: ConversationItem[], event: WireEvent): ConversationItem[] {
  switch (event.type) {
    case 'ContentPart': {
      const part = event.payload;
      if (part.type === 'text') return appendText(items, 'text', part.text);
      if (part.type === 'think') return appendText(items, 'think', part.think);
      return [...items, { kind: 'notice', tone: 'info', text: `[${part.type.replace('_url', '')}]` }];
    }
    case 'ToolCall':
      return [
        ...items,
        {
          kind: 'tool',
          id: event.payload.id,
          name: event.payload.function.name,
          args: event.payload.function.arguments ?? '',
          result: null,
          liveOutput: '',
          subagents: [],
        },
      ];
    case 'ToolCallPart': {
      const last = items[items.length - 1];
      if (last?.kind !== 'tool' || !event.payload.arguments_part) return items;
      return [...items.slice(0, -1), { ...last, args: last.args + event.payload.arguments_part }];
    }
    case 'ToolResult':
      return updateToolCall(items, event.payload.tool_call_id, (call) => ({
        ...call,
        result: event.payload.return_value,
      }));
    case 'SubagentEvent': {
      const { parent_tool_call_id, agent_id, subagent_type, event: inner } = event.payload;
      if (!parent_tool_call_id) return items;
      return updateToolCall(items, parent_tool_call_id, (call) => {
        // Each agent's events stay with it: a swarm's streams never run into each other.
        const known = call.subagents.some((sub) => sub.agentId === agent_id);
        const subagents = known
          ? call.subagents
          : [...call.subagents, { agentId: agent_id, type: subagent_type, items: [] }];
        return {
          ...call,
          subagents: subagents.map((sub) =>
            sub.agentId === agent_id ? { ...sub, items: applyItemEvent(sub.items, inner) } : sub,
          ),
        };
      });
    }
    case 'ToolOutput':
      return updateToolCall(items, event.payload.tool_call_id, (call) => ({
        ...call,
        liveOutput: (call.liveOutput + event.payload.text).slice(-LIVE_OUTPUT_KEPT_CHARS),
      }));
    case 'SteerInput':
      return [...items, { kind: 'steer', text: userInputLabel(event.payload.user_input) }];
    case 'StepRetry':
      return [
        ...items,
        {
          kind: 'notice',
          tone: 'warn',
          text: `Retrying (attempt ${event.payload.next_attempt} of ${event.payload.max_attempts}) after ${event.payload.error_type}`,
        },
      ];
    case 'StepInterrupted':
      // The error that interrupted the step is shown as the turn's error: a note before it is noise.
      return items;
    case 'CompactionBegin':
      return [...items, { kind: 'notice', tone: 'info', text: 'Compacting the context…' }];
    case 'CompactionEnd':
      return [...items, { kind: 'notice', tone: 'info', text: 'Context compacted' }];
    case 'HookResolved':
      return event.payload.action === 'block'
        ? [
            ...items,
            {
              kind: 'notice',
              tone: 'warn',
              text: `Hook ${event.payload.event} blocked: ${event.payload.reason}`,
            },
          ]
        : items;
    case 'BtwEnd':
      return event.payload.response
        ? [...items, { kind: 'notice', tone: 'info', text: event.payload.response }]
        : items;
    case 'TurnBegin':
    case 'TurnEnd':
    case 'StepBegin':
    // The turn it announces shows it (conversation-state.ts).
    case 'ScheduleFired':
    case 'HookTriggered':
    case 'MCPLoadingBegin':
    case 'MCPLoadingEnd':
    case 'StatusUpdate':
    case 'Notification':
    case 'ApprovalResponse':
    case 'PlanDisplay':
    case 'BtwBegin':
    // The rewind's result line is the session's own text, said just before this event.
    case 'RewindDone':
      return items;
    case 'GoalUpdated': {
      const text = goalLineText(event.payload);
      const last = items.at(-1);
      return last?.kind === 'notice' && last.text === text
        ? items
        : [...items, { kind: 'notice', tone: 'info', text }];
    }
  }
  return assertNever(event, 'wire event');
}

function appendText(items: ConversationItem[], kind: 'text' | 'think', text: string): ConversationItem[] {
  if (!text) return items;
  const last = items[items.length - 1];
  if (last?.kind === kind) return [...items.slice(0, -1), { kind, text: last.text + text }];
  return [...items, { kind, text }];
}

function updateToolCall(
  items: ConversationItem[],
  id: string,
  update: (call: ToolCallItem) => ToolCallItem,
): ConversationItem[] {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    if (item.kind === 'tool' && item.id === id)
      return [...items.slice(0, i), update(item), ...items.slice(i + 1)];
  }
  return items;
}

/** The text of a user input as the page shows it: media parts as `[image]` and the like. */
export function userInputLabel(input: UserInput): string {
  return userInputText(input, 'placeholder');
}
