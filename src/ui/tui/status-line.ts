import { type Component, truncateToWidth } from '@mariozechner/pi-tui';
import type { StatusUpdate } from '../../wire/events.js';
import { formatDollars, type ModelPrice, tokenCost } from '../common/token-cost.js';
import type { TuiStyle } from './tui-style.js';

export type { ModelPrice } from '../common/token-cost.js';

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
  /** A transient word on the right, e.g. `working…`, `queued: 1`. */
  activity: string | null;
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
    mcp: null,
    backgroundTasks: 0,
    subagents: 0,
    price: null,
    cost: 0,
    activity: null,
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
    next.tokensIn += usage.input_other + usage.input_cache_read + usage.input_cache_creation;
    next.tokensOut += usage.output;
    if (facts.price) next.cost += tokenCost(facts.price, usage);
  }
  return next;
}

/** `e2e-model · context 12% (31.2k/262.1k) · ↑40.1k ↓2.3k · cost n/a · plan` */
export function formatStatus(facts: StatusFacts): string {
  const parts: string[] = [];
  if (facts.model) parts.push(facts.model);
  if (facts.contextUsage !== null) {
    const amounts =
      facts.contextTokens !== null && facts.maxContextTokens
        ? ` (${tokens(facts.contextTokens)}/${tokens(facts.maxContextTokens)})`
        : '';
    parts.push(`context ${Math.round(facts.contextUsage * 100)}%${amounts}`);
  }
  parts.push(`↑${tokens(facts.tokensIn)} ↓${tokens(facts.tokensOut)}`);
  parts.push(facts.price ? `cost ${formatDollars(facts.cost)}` : 'cost n/a');
  if (facts.planMode) parts.push('plan');
  if (facts.yolo) parts.push('yolo');
  if (facts.mcp) {
    const { connected, total, failed, loading } = facts.mcp;
    parts.push(
      `mcp ${connected}/${total}${loading ? ' connecting…' : ''}${failed ? ` (${failed} failed)` : ''}`,
    );
  }
  if (facts.backgroundTasks > 0) parts.push(`⚙ tasks: ${facts.backgroundTasks}`);
  if (facts.subagents > 0) parts.push(`subagents: ${facts.subagents}`);
  if (facts.activity) parts.push(facts.activity);
  return parts.join(' · ');
}

/** 31234 → `31.2k`. */
function tokens(count: number): string {
  return count >= 1000 ? `${(count / 1000).toFixed(1)}k` : String(count);
}

/** The line under the prompt editor. */
export class StatusLineView implements Component {
  facts: StatusFacts;

  constructor(
    private readonly style: TuiStyle,
    model: string | null,
  ) {
    this.facts = emptyStatus(model);
  }

  render(width: number): string[] {
    return [truncateToWidth(this.style.dim(formatStatus(this.facts)), width)];
  }

  invalidate(): void {}
}
