import type { SessionModes } from '../../app/agent-session.js';
import { assertNever } from '../../util/assert-never.js';
import { joinTerminalText, type TerminalSafe } from '../../util/sanitize-terminal.js';
import { formatDollars, type ModelPrice, type TokenCounts, tokenCost } from '../../util/token-cost.js';
import type { StatusUpdate, WireEventOf } from '../../wire/events.js';
import type { WireMessage } from '../../wire/message.js';
import { goalAtTurnBegin } from '../common/goal-line.js';
import type { SafeComponent } from './safe-component.js';
import { sanitizeForTerminal } from './sanitize-for-terminal.js';
import { applyGoalUpdate, type GoalShown, goalStatusPart } from './status-goal.js';
import { fitLine } from './terminal-lines.js';
import { spinnerFrame } from './tool-call-view.js';
import type { TuiStyle } from './tui-style.js';

export type { ModelPrice } from '../../util/token-cost.js';

/** What the status line shows, gathered from the session and its StatusUpdate events. */
export interface StatusFacts {
  model: string | null;
  contextUsage: number | null;
  contextTokens: number | null;
  maxContextTokens: number | null;
  /** Tokens sent and received in this session, summed over its steps. */
  tokensIn: number;
  tokensOut: number;
  planMode: boolean;
  yolo: boolean;
  afk: boolean;
  /** The sandbox's badge (`sandbox`, `sandbox read-only`, `+net`; `no sandbox` where it cannot run), null when off. */
  sandbox: string | null;
  /** MCP servers: how many are connected of how many, and whether they are still connecting. */
  mcp: { connected: number; total: number; failed: number; loading: boolean } | null;
  /** Background tasks running now. */
  backgroundTasks: number;
  /** Subagents (Agent tool calls) running now. */
  subagents: number;
  /** The current model's prices (US dollars per million tokens), null when the config has none. */
  price: ModelPrice | null;
  /** What this session's tokens cost so far, in dollars (counted while a price was known). */
  cost: number;
  /** A transient word after the badges, e.g. `working… (Esc cancels)`, `press Ctrl-C again…`. */
  activity: string | null;
  /** When the running turn (or `!command`) started: a spinner and the elapsed time show; null when idle. */
  runningSince: number | null;
  /**
   * Characters the model has streamed in the running step (text, thinking, tool arguments): shown as
   * an estimate of its output tokens until the step's real usage arrives.
   */
  streamedChars: number;
  /** The session's goal as the last `GoalUpdated` told it (a completed one until the next job). */
  goal: GoalShown | null;
}

export function emptyStatus(model: string | null): StatusFacts {
  return {
    model,
    contextUsage: null,
    contextTokens: null,
    maxContextTokens: null,
    tokensIn: 0,
    tokensOut: 0,
    planMode: false,
    yolo: false,
    afk: false,
    sandbox: null,
    mcp: null,
    backgroundTasks: 0,
    subagents: 0,
    price: null,
    cost: 0,
    activity: null,
    runningSince: null,
    streamedChars: 0,
    goal: null,
  };
}

/** The facts after a StatusUpdate (absent fields keep their value; token usage adds up). */
export function applyStatusUpdate(facts: StatusFacts, update: StatusUpdate): StatusFacts {
  const next = { ...facts };
  if (typeof update.context_usage === 'number') next.contextUsage = update.context_usage;
  if (typeof update.context_tokens === 'number') next.contextTokens = update.context_tokens;
  if (typeof update.max_context_tokens === 'number') next.maxContextTokens = update.max_context_tokens;
  if (typeof update.plan_mode === 'boolean') next.planMode = update.plan_mode;
  if (update.mcp_status && update.mcp_status.total > 0) {
    const { connected, total, loading, servers } = update.mcp_status;
    const failed = servers.filter(
      (server) => server.status === 'failed' || server.status === 'unauthorized',
    ).length;
    next.mcp = { connected, total, failed, loading };
  }
  if (update.token_usage) {
    const usage = update.token_usage;
    // The step's real count replaces the estimate of what it streamed.
    next.streamedChars = 0;
    next.tokensIn += usage.input_other + usage.input_cache_read + usage.input_cache_creation;
    next.tokensOut += usage.output;
    if (facts.price) next.cost += tokenCost(facts.price, usage);
  }
  return next;
}

/**
 * The facts after a subagent's step: its tokens and their cost join the session's totals (at the
 * session's price: a subagent runs on the session's model). Its context and streaming are its own.
 */
export function withSubagentUsage(facts: StatusFacts, usage: TokenCounts): StatusFacts {
  return {
    ...facts,
    tokensIn: facts.tokensIn + usage.input_other + usage.input_cache_read + usage.input_cache_creation,
    tokensOut: facts.tokensOut + usage.output,
    cost: facts.price ? facts.cost + tokenCost(facts.price, usage) : facts.cost,
  };
}

/**
 * The facts with another model's context window (after `/model`): the same tokens in use, counted
 * against the new size at once rather than at the next step.
 */
export function withContextSize(facts: StatusFacts, maxContextTokens: number | null): StatusFacts {
  if (maxContextTokens === null || maxContextTokens <= 0) return facts;
  const used = facts.contextTokens;
  return {
    ...facts,
    maxContextTokens,
    contextUsage: used === null ? facts.contextUsage : Math.min(1, used / maxContextTokens),
  };
}

/** Characters per token, roughly, for the live estimate of a streaming step's output. */
const CHARS_PER_TOKEN = 4;

/** The facts after a wire message of the running turn: what the model streams counts at once. */
export function withStreamed(facts: StatusFacts, message: WireMessage): StatusFacts {
  const chars = streamedLength(message);
  return chars > 0 ? { ...facts, streamedChars: facts.streamedChars + chars } : facts;
}

function streamedLength(message: WireMessage): number {
  switch (message.type) {
    case 'ContentPart':
      return message.payload.type === 'text'
        ? message.payload.text.length
        : message.payload.type === 'think'
          ? message.payload.think.length
          : 0;
    case 'ToolCall':
      return message.payload.function.arguments?.length ?? 0;
    case 'ToolCallPart':
      return message.payload.arguments_part?.length ?? 0;
    default:
      return 0;
  }
}

/** `0:07`, `12:05`: how long the running turn has taken. */
export function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const minutes = Math.floor(total / 60);
  return `${minutes}:${String(total % 60).padStart(2, '0')}`;
}

/** The facts with the session's modes as they are now (yolo, afk, plan, sandbox). */
export function withModes(facts: StatusFacts, modes: SessionModes, planMode: boolean): StatusFacts {
  const { yolo, afk, sandbox } = modes;
  const badge = !sandbox
    ? null
    : sandbox.state === 'unavailable'
      ? 'no sandbox'
      : `sandbox${sandbox.mode === 'read-only' ? ' read-only' : ''}${sandbox.network ? ' +net' : ''}`;
  return { ...facts, yolo, afk, planMode, sandbox: badge };
}

/** How a part of the status line is drawn: a badge in its colour, the rest dimmed. */
type Tone = 'plain' | 'warn' | 'accent' | 'ok';
interface StatusPart {
  text: string;
  tone: Tone;
}

/** `e2e-model · yolo · plan · context 12% (31.2k/262.1k) · ↑40.1k ↓2.3k · cost n/a` */
export function formatStatus(facts: StatusFacts, now = Date.now()): string {
  return statusParts(facts, now)
    .map((part) => part.text)
    .join(' · ');
}

/**
 * The status line's parts. The badges come right after the model (Kimi CLI puts them first), so a
 * narrow terminal cuts the numbers before it cuts what decides whether an action asks first.
 */
function statusParts(facts: StatusFacts, now: number): StatusPart[] {
  const parts: StatusPart[] = [];
  const plain = (text: string) => parts.push({ text, tone: 'plain' });
  if (facts.model) plain(facts.model);
  if (facts.yolo) parts.push({ text: 'yolo', tone: 'warn' });
  if (facts.afk) parts.push({ text: 'afk', tone: 'warn' });
  if (facts.planMode) parts.push({ text: 'plan', tone: 'accent' });
  // Wanted but unable to run here: a warning, as yolo is.
  if (facts.sandbox)
    parts.push({ text: facts.sandbox, tone: facts.sandbox === 'no sandbox' ? 'warn' : 'ok' });
  // What is going on now comes before the numbers, so a narrow terminal keeps it.
  const running =
    facts.runningSince !== null ? `${spinnerFrame(now)} ${formatElapsed(now - facts.runningSince)}` : null;
  const activity = [running, facts.activity].filter(Boolean).join(' ');
  if (activity) parts.push({ text: activity, tone: running ? 'accent' : 'plain' });
  // The goal decides whether the agent goes on by itself: before the numbers too.
  if (facts.goal) parts.push(goalStatusPart(facts.goal, now));
  if (facts.contextUsage !== null) {
    const amounts =
      facts.contextTokens !== null && facts.maxContextTokens
        ? ` (${tokens(facts.contextTokens)}/${tokens(facts.maxContextTokens)})`
        : '';
    plain(`context ${Math.round(facts.contextUsage * 100)}%${amounts}`);
  }
  const streamed = Math.ceil(facts.streamedChars / CHARS_PER_TOKEN);
  plain(`↑${tokens(facts.tokensIn)} ↓${streamed > 0 ? '~' : ''}${tokens(facts.tokensOut + streamed)}`);
  plain(facts.price ? `cost ${formatDollars(facts.cost)}` : 'cost n/a');
  if (facts.mcp) {
    const { connected, total, failed, loading } = facts.mcp;
    plain(`mcp ${connected}/${total}${loading ? ' connecting…' : ''}${failed ? ` (${failed} failed)` : ''}`);
  }
  if (facts.backgroundTasks > 0) plain(`⚙ tasks: ${facts.backgroundTasks}`);
  if (facts.subagents > 0) plain(`subagents: ${facts.subagents}`);
  return parts;
}

/** 31234 → `31.2k`. */
function tokens(count: number): string {
  return count >= 1000 ? `${(count / 1000).toFixed(1)}k` : String(count);
}

/** The line under the prompt editor. */
export class StatusLineView implements SafeComponent {
  facts: StatusFacts;
  private onRender: (() => void) | null = null;

  constructor(
    private readonly style: TuiStyle,
    model: string | null,
  ) {
    this.facts = emptyStatus(model);
  }

  /**
   * Asks for a frame and resolves once this line was drawn in it (or after `timeoutMs`): what is
   * left on the screen when the TUI stops is what the facts say now.
   */
  rendered(tui: { requestRender(): void }, timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, timeoutMs);
      timer.unref?.();
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.onRender = done;
      tui.requestRender();
    });
  }

  render(width: number): TerminalSafe[] {
    const rendered = this.onRender;
    this.onRender = null;
    if (rendered) queueMicrotask(rendered);
    const { style } = this;
    // The parts hold the model's alias and the activity (a tool's name): a short line, made safe here.
    const paint = (part: StatusPart): TerminalSafe => {
      const text = sanitizeForTerminal(part.text);
      switch (part.tone) {
        case 'plain':
          return style.dim(text);
        case 'warn':
          return style.bold(style.warn(text));
        case 'accent':
          return style.bold(style.accent(text));
        case 'ok':
          return style.ok(text);
        default:
          return assertNever(part.tone);
      }
    };
    const line = joinTerminalText(statusParts(this.facts, Date.now()).map(paint), style.dim(' · '));
    return [fitLine(line, width)];
  }

  /** A StatusUpdate of the session (context, tokens, plan mode, MCP). */
  applyStatus(update: StatusUpdate): void {
    this.facts = applyStatusUpdate(this.facts, update);
  }

  /** A subagent's step spent tokens. */
  applySubagentUsage(usage: TokenCounts): void {
    this.facts = withSubagentUsage(this.facts, usage);
  }

  /** The session's goal changed (a `GoalUpdated`). */
  applyGoal(payload: WireEventOf<'GoalUpdated'>['payload']): void {
    this.facts = { ...this.facts, goal: applyGoalUpdate(this.facts.goal, payload, Date.now()) };
  }

  invalidate(): void {}
}

/** The status line's facts of a job starting now, and of no job. */
export const JOB_RUNNING = () => ({ runningSince: Date.now(), streamedChars: 0 });
/** A new job starts: a goal that completed has been seen long enough. */
export function withJobStarted(facts: StatusFacts): StatusFacts {
  const goal = goalAtTurnBegin(facts.goal?.goal ?? null) ? facts.goal : null;
  return { ...facts, ...JOB_RUNNING(), goal };
}
export const JOB_IDLE = { activity: null, runningSince: null, streamedChars: 0 };
