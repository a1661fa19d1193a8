import { addTokens, NO_TOKENS, subagentStepUsage, type TokenCounts } from '../../../util/token-cost.js';
import { type GoalSnapshot, goalAfterUpdate, goalAtTurnBegin } from '../../common/goal-line.js';
import { scheduleLineText } from '../../common/schedule-line.js';
import { applyItemEvent, type ConversationItem, userInputLabel } from './conversation-items.js';
import { asKnownBlock, type DisplayBlockLike } from './display-blocks.js';

export type { ConversationItem, SubagentView, ToolCallItem } from './conversation-items.js';
export { applyItemEvent, userInputLabel } from './conversation-items.js';

import type {
  ApprovalRequestData,
  EventPayloads,
  PlanDisplay,
  QuestionRequestData,
  WireEvent,
} from './wire-types.js';

/**
 * The page's picture of a session, built only from wire messages: a pure reducer, so a replay of
 * wire.jsonl and the live stream after it build the same state, and tests can feed it events.
 */

export interface TurnView {
  userInput: string;
  /** Set when a schedule (CronCreate, `/loop`) started the turn: the line that says which. */
  schedule?: string | null;
  items: ConversationItem[];
  done: boolean;
}

export interface PendingApproval {
  /** The JSON-RPC id to answer; null when it came from a replay (history, not answerable). */
  rpcId: string | null;
  request: ApprovalRequestData;
}

export interface PendingQuestion {
  rpcId: string | null;
  request: QuestionRequestData;
}

export interface BackgroundTask {
  id: string;
  kind: string;
  status: string;
  description: string;
}

export interface SessionStatus {
  contextUsage: number | null;
  contextTokens: number | null;
  maxContextTokens: number | null;
  tokensIn: number;
  tokensOut: number;
  tokensCached: number;
  /** Every step's token usage summed, by kind: what the cost is computed from (token-cost.ts). */
  usage: TokenCounts;
  planMode: boolean;
}

/** The server's question whether to trust the session's folder (a kimi-ts extension). */
export interface PendingTrust {
  rpcId: string | null;
  /** `allow_rules`: each allow rule as written (absent from a server before it was sent). */
  request: { id: string; folder: string; enables: string[]; allow_rules?: string[] };
}

export interface ConversationState {
  turns: TurnView[];
  approvals: PendingApproval[];
  questions: PendingQuestion[];
  /** Asked once after connecting when the folder's own configuration is held back; null otherwise. */
  trust: PendingTrust | null;
  status: SessionStatus;
  plan: PlanDisplay | null;
  tasks: BackgroundTask[];
  /** Whether a turn is running (between TurnBegin and TurnEnd). */
  busy: boolean;
  /** The session's goal, from `GoalUpdated` (a completed one until the next turn begins). */
  goal: GoalSnapshot | null;
  /** A ScheduleFired seen, for the TurnBegin that follows it. */
  scheduled?: string | null;
}

export const EMPTY_CONVERSATION: ConversationState = {
  turns: [],
  approvals: [],
  questions: [],
  trust: null,
  status: {
    contextUsage: null,
    contextTokens: null,
    maxContextTokens: null,
    tokensIn: 0,
    tokensOut: 0,
    tokensCached: 0,
    usage: NO_TOKENS,
    planMode: false,
  },
  plan: null,
  tasks: [],
  busy: false,
  goal: null,
};

export type ConversationAction =
  | { kind: 'event'; event: WireEvent }
  | { kind: 'request'; rpcId: string | null; type: string; payload: unknown }
  | { kind: 'answered'; requestId: string }
  | { kind: 'reset' };

export function reduceConversation(state: ConversationState, action: ConversationAction): ConversationState {
  switch (action.kind) {
    case 'reset':
      return EMPTY_CONVERSATION;
    case 'event':
      return applyEvent(state, action.event);
    case 'request':
      return applyRequest(state, action.rpcId, action.type, action.payload);
    case 'answered':
      return withoutRequest(state, action.requestId);
  }
}

function applyRequest(
  state: ConversationState,
  rpcId: string | null,
  type: string,
  payload: unknown,
): ConversationState {
  if (type === 'ApprovalRequest') {
    const request = payload as ApprovalRequestData;
    const known = state.approvals.find((a) => a.request.id === request.id);
    // A live request is re-sent at (re)connect and may come again in the replay: keep the live id.
    if (known)
      return known.rpcId !== null || rpcId === null ? state : replaceApproval(state, { rpcId, request });
    return { ...state, approvals: [...state.approvals, { rpcId, request }] };
  }
  if (type === 'WorkspaceTrustRequest') {
    const request = payload as PendingTrust['request'];
    return { ...state, trust: { rpcId, request } };
  }
  if (type === 'QuestionRequest') {
    const request = payload as QuestionRequestData;
    const known = state.questions.find((q) => q.request.id === request.id);
    if (known) {
      if (known.rpcId !== null || rpcId === null) return state;
      return { ...state, questions: state.questions.map((q) => (q === known ? { rpcId, request } : q)) };
    }
    return { ...state, questions: [...state.questions, { rpcId, request }] };
  }
  return state;
}

function replaceApproval(state: ConversationState, next: PendingApproval): ConversationState {
  return {
    ...state,
    approvals: state.approvals.map((a) => (a.request.id === next.request.id ? next : a)),
  };
}

function withoutRequest(state: ConversationState, requestId: string): ConversationState {
  return {
    ...state,
    approvals: state.approvals.filter((a) => a.request.id !== requestId),
    questions: state.questions.filter((q) => q.request.id !== requestId),
    trust: state.trust?.request.id === requestId ? null : state.trust,
  };
}

function applyEvent(state: ConversationState, event: WireEvent): ConversationState {
  switch (event.type) {
    case 'TurnBegin':
      return {
        ...state,
        busy: true,
        goal: goalAtTurnBegin(state.goal),
        scheduled: null,
        turns: [
          ...state.turns,
          {
            userInput: userInputLabel(event.payload.user_input),
            ...(state.scheduled ? { schedule: state.scheduled } : {}),
            items: [],
            done: false,
          },
        ],
      };
    case 'ScheduleFired':
      return { ...state, scheduled: scheduleLineText(event.payload) };
    case 'TurnEnd':
      // Requests of a finished turn are closed by the server; their panels go too (a background
      // agent's approval lives on past the turn).
      return {
        ...state,
        busy: false,
        approvals: state.approvals.filter((a) => a.request.source_kind === 'background_agent'),
        questions: [],
        turns: updateLastTurn(state.turns, (t) => ({ ...t, done: true })),
      };
    case 'StatusUpdate':
      return { ...state, status: applyStatus(state.status, event.payload) };
    case 'SubagentEvent': {
      // A subagent's step spends on the session's account: its tokens join the totals (its context
      // numbers are its own); the event is shown under its call as before.
      const usage = subagentStepUsage(event);
      const turns = updateLastTurn(state.turns, (t) => ({ ...t, items: applyItemEvent(t.items, event) }));
      return usage ? { ...state, turns, status: addUsage(state.status, usage) } : { ...state, turns };
    }
    case 'GoalUpdated':
      return {
        ...state,
        goal: goalAfterUpdate(state.goal, event.payload),
        turns: updateLastTurn(state.turns, (t) => ({ ...t, items: applyItemEvent(t.items, event) })),
      };
    case 'ApprovalResponse':
      return withoutRequest(state, event.payload.request_id);
    case 'PlanDisplay':
      return {
        ...state,
        plan: event.payload,
        turns: addItem(state.turns, {
          kind: 'notice',
          tone: 'info',
          text: `Plan: ${event.payload.file_path}`,
        }),
      };
    case 'Notification':
      return {
        ...state,
        tasks: taskFromNotification(state.tasks, event.payload),
        turns: addItem(state.turns, {
          kind: 'notice',
          tone: 'info',
          text: `${event.payload.title}${event.payload.body ? ` — ${event.payload.body}` : ''}`,
        }),
      };
    case 'ToolResult': {
      // The call has its result: whatever it asked the user is settled (this matters in a replay).
      const callId = event.payload.tool_call_id;
      const next = {
        ...state,
        approvals: state.approvals.filter((a) => a.request.tool_call_id !== callId),
        questions: state.questions.filter((q) => q.request.tool_call_id !== callId),
        turns: updateLastTurn(state.turns, (t) => ({ ...t, items: applyItemEvent(t.items, event) })),
      };
      return { ...next, tasks: tasksFromDisplay(next.tasks, event.payload.return_value.display) };
    }
    default:
      return {
        ...state,
        turns: updateLastTurn(state.turns, (t) => ({ ...t, items: applyItemEvent(t.items, event) })),
      };
  }
}

function updateLastTurn(turns: TurnView[], update: (turn: TurnView) => TurnView): TurnView[] {
  // Events before any TurnBegin (a replay that starts mid-way) get a turn of their own.
  const base = turns.length > 0 ? turns : [{ userInput: '', items: [], done: false }];
  return [...base.slice(0, -1), update(base[base.length - 1]!)];
}

function addItem(turns: TurnView[], item: ConversationItem): TurnView[] {
  return updateLastTurn(turns, (t) => ({ ...t, items: [...t.items, item] }));
}

function applyStatus(status: SessionStatus, update: EventPayloads['StatusUpdate']): SessionStatus {
  const next = { ...status };
  if (typeof update.context_usage === 'number') next.contextUsage = update.context_usage;
  if (typeof update.context_tokens === 'number') next.contextTokens = update.context_tokens;
  if (typeof update.max_context_tokens === 'number') next.maxContextTokens = update.max_context_tokens;
  if (typeof update.plan_mode === 'boolean') next.planMode = update.plan_mode;
  return update.token_usage ? addUsage(next, update.token_usage) : next;
}

/** The totals with one step's tokens (the session's own, or a subagent's) added. */
function addUsage(
  status: SessionStatus,
  usage: Partial<TokenCounts> & Pick<TokenCounts, 'input_other' | 'output'>,
): SessionStatus {
  return {
    ...status,
    tokensIn:
      status.tokensIn + usage.input_other + (usage.input_cache_read ?? 0) + (usage.input_cache_creation ?? 0),
    tokensCached: status.tokensCached + (usage.input_cache_read ?? 0),
    tokensOut: status.tokensOut + usage.output,
    usage: addTokens(status.usage, usage),
  };
}

function tasksFromDisplay(tasks: BackgroundTask[], display: readonly DisplayBlockLike[]): BackgroundTask[] {
  let next = tasks;
  for (const raw of display) {
    const block = asKnownBlock(raw);
    if (block?.type !== 'background_task') continue;
    const task: BackgroundTask = {
      id: block.task_id,
      kind: block.kind,
      status: block.status,
      description: block.description,
    };
    next = [...next.filter((t) => t.id !== task.id), task];
  }
  return next;
}

function taskFromNotification(
  tasks: BackgroundTask[],
  note: EventPayloads['Notification'],
): BackgroundTask[] {
  if (note.source_kind !== 'background_task') return tasks;
  const status = note.type.startsWith('task.') ? note.type.slice('task.'.length) : note.type;
  return tasks.map((t) => (t.id === note.source_id ? { ...t, status } : t));
}
