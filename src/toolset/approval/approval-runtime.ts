import { randomUUID } from 'node:crypto';
import type { DisplayBlock } from '../../kosong/index.js';
import type { Wire } from '../../wire/wire.js';
import type { ApprovalSource } from './approval-source.js';

export type ApprovalResponseKind = 'approve' | 'approve_for_session' | 'reject';

/**
 * How much an approve-for-session covers: `exact` (the default) only this action with this exact
 * description — the command or file the user saw; `action` every request with this action.
 */
export type ApprovalScopeKind = 'exact' | 'action' | 'prefix';

/** Where an approve-for-session answer is also saved as an allow rule. */
export type RuleSaveScope = 'project' | 'user';

export interface ApprovalDecision {
  response: ApprovalResponseKind;
  feedback: string;
  scope: ApprovalScopeKind;
  /** Also remember an approve-for-session for this project (when the caller supports it). */
  persist: boolean;
  /** For scope `prefix`: commands whose every part starts with this are approved. */
  prefix?: string | undefined;
  /** Also save the answer as an allow permission rule, for the project or the user. */
  saveRule?: RuleSaveScope | undefined;
  /**
   * For approve-for-session: remember it only for the agents of the asking agent's swarm, until the
   * swarm ends (never persisted nor saved as a rule). From an agent of no swarm it approves once.
   */
  forSwarm?: boolean | undefined;
}

export type ApprovalDecisionInput = Pick<ApprovalDecision, 'response'> &
  Partial<Omit<ApprovalDecision, 'response'>>;

export interface ApprovalRequestInput {
  tool_call_id: string;
  sender: string;
  action: string;
  description: string;
  display?: DisplayBlock[] | undefined;
  source: ApprovalSource;
}

interface RecordFields {
  readonly id: string;
  readonly tool_call_id: string;
  readonly sender: string;
  readonly action: string;
  readonly description: string;
  readonly display: readonly DisplayBlock[];
  readonly source: ApprovalSource;
  /** Milliseconds since the epoch. */
  readonly created_at: number;
}

export interface PendingApprovalRecord extends RecordFields {
  readonly status: 'pending';
}

/** `resolved`: someone answered; `cancelled`: timed out or its source/call went away (counts as a rejection). */
export interface SettledApprovalRecord extends RecordFields, ApprovalDecision {
  readonly status: 'resolved' | 'cancelled';
  readonly resolved_at: number;
  /** Released by an approve-for-session given to another request. */
  readonly approved_via_session_cache: boolean;
}

export type ApprovalRecord = PendingApprovalRecord | SettledApprovalRecord;

export type ApprovalRuntimeEvent =
  | {
      type: 'request_created';
      record: PendingApprovalRecord;
      /** The wire of the run that asked (the bridge sends the request there); absent: the caller's current wire. */
      wire?: Wire | null | undefined;
    }
  | { type: 'request_resolved'; record: SettledApprovalRecord };

export interface WaitOptions {
  /** Stops this observer waiting (the request stays pending for the others). */
  signal?: AbortSignal | undefined;
  /** Cancels the request for every observer when it passes, with feedback "approval timed out". */
  timeoutMs?: number | undefined;
}

interface Entry {
  record: ApprovalRecord;
  settled: Promise<SettledApprovalRecord>;
  settle: (record: SettledApprovalRecord) => void;
}

/** How many settled records stay readable (`get`) after resolution. */
const SETTLED_HISTORY = 256;

/**
 * The registry of approval requests: each request is a record that moves once from `pending` to
 * `resolved` or `cancelled`. Any number of observers may wait on one request; they share a single
 * settlement, so one observer giving up never strands the others.
 */
export class ApprovalRuntime {
  private readonly entries = new Map<string, Entry>();
  private readonly settledOrder: string[] = [];
  private readonly listeners = new Set<(event: ApprovalRuntimeEvent) => void>();

  createRequest(
    input: ApprovalRequestInput,
    origin: { wire?: Wire | null | undefined } = {},
  ): PendingApprovalRecord {
    const record: PendingApprovalRecord = {
      id: randomUUID(),
      tool_call_id: input.tool_call_id,
      sender: input.sender,
      action: input.action,
      description: input.description,
      display: input.display ?? [],
      source: input.source,
      created_at: Date.now(),
      status: 'pending',
    };
    let settle!: (record: SettledApprovalRecord) => void;
    const settled = new Promise<SettledApprovalRecord>((resolve) => {
      settle = resolve;
    });
    this.entries.set(record.id, { record, settled, settle });
    this.publish({ type: 'request_created', record, wire: origin.wire });
    return record;
  }

  get(id: string): ApprovalRecord | undefined {
    return this.entries.get(id)?.record;
  }

  /** Pending requests, oldest first. */
  listPending(): PendingApprovalRecord[] {
    const pending: PendingApprovalRecord[] = [];
    for (const { record } of this.entries.values()) if (record.status === 'pending') pending.push(record);
    return pending;
  }

  /** Waits for the request's settlement. Rejects with the signal's reason if this observer's signal aborts. */
  async waitForResponse(id: string, options: WaitOptions = {}): Promise<SettledApprovalRecord> {
    const entry = this.entries.get(id);
    if (!entry) throw new Error(`Unknown approval request: ${id}`);
    if (entry.record.status !== 'pending') return entry.record;
    const { signal, timeoutMs } = options;
    signal?.throwIfAborted();
    const cleanups: (() => void)[] = [];
    try {
      const waits: Promise<SettledApprovalRecord>[] = [entry.settled];
      if (signal) {
        waits.push(
          new Promise<never>((_, reject) => {
            const onAbort = (): void => reject(signal.reason);
            signal.addEventListener('abort', onAbort, { once: true });
            cleanups.push(() => signal.removeEventListener('abort', onAbort));
          }),
        );
      }
      if (timeoutMs !== undefined) {
        const timer = setTimeout(() => this.cancel(id, 'approval timed out'), timeoutMs);
        cleanups.push(() => clearTimeout(timer));
      }
      return await Promise.race(waits);
    } finally {
      for (const cleanup of cleanups) cleanup();
    }
  }

  /** Answers a pending request. Returns false if it is unknown or already settled. */
  resolve(id: string, decision: ApprovalDecisionInput, options: { viaSessionCache?: boolean } = {}): boolean {
    return this.settle(id, 'resolved', decision, options.viaSessionCache ?? false);
  }

  /** Settles a pending request as a rejection nobody gave (timeout, the call or its source ended). */
  cancel(id: string, feedback = ''): boolean {
    return this.settle(id, 'cancelled', { response: 'reject', feedback }, false);
  }

  /** Cancels every pending request of a turn, subagent run or background task; returns how many. */
  cancelBySource(kind: ApprovalSource['kind'], sourceId: string, feedback = ''): number {
    let count = 0;
    for (const record of this.listPending()) {
      if (record.source.kind === kind && record.source.id === sourceId && this.cancel(record.id, feedback))
        count++;
    }
    return count;
  }

  /** Listens to creations and settlements; returns the unsubscribe function. */
  subscribe(listener: (event: ApprovalRuntimeEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private settle(
    id: string,
    status: SettledApprovalRecord['status'],
    decision: ApprovalDecisionInput,
    viaSessionCache: boolean,
  ): boolean {
    const entry = this.entries.get(id);
    if (entry?.record.status !== 'pending') return false;
    const record: SettledApprovalRecord = {
      ...entry.record,
      status,
      resolved_at: Date.now(),
      response: decision.response,
      feedback: decision.feedback ?? '',
      scope: decision.scope ?? 'exact',
      persist: decision.persist ?? false,
      ...(decision.prefix ? { prefix: decision.prefix } : {}),
      ...(decision.saveRule ? { saveRule: decision.saveRule } : {}),
      ...(decision.forSwarm ? { forSwarm: true } : {}),
      approved_via_session_cache: viaSessionCache,
    };
    entry.record = record;
    entry.settle(record);
    this.rememberSettled(id);
    this.publish({ type: 'request_resolved', record });
    return true;
  }

  private rememberSettled(id: string): void {
    this.settledOrder.push(id);
    while (this.settledOrder.length > SETTLED_HISTORY) this.entries.delete(this.settledOrder.shift()!);
  }

  private publish(event: ApprovalRuntimeEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch {
        // A failing subscriber (a closed UI) must not break approvals for everyone else.
      }
    }
  }
}
