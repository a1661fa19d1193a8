import type { DisplayBlock, ToolReturnValue } from '../../kosong/index.js';
import { currentToolCallScope, type ToolCallScope } from '../current-tool-call.js';
import type { RunContext } from '../run-scope.js';
import { toolRejectedError } from '../tool-errors.js';
import { type ApprovalDecision, type ApprovalResponseKind, ApprovalRuntime } from './approval-runtime.js';
import { type ApprovalScope, ApprovalScopeSet, approvalScope, scopeCovers } from './approval-scope.js';
import { type ApprovalSource, currentApprovalSource, isSubagentSource } from './approval-source.js';
import type { ProjectApprovals } from './project-approvals.js';
import { SwarmApprovals } from './swarm-approvals.js';

/** The persisted part of the approval state (Kimi CLI keeps it in `state.json` under `approval`). */
export interface ApprovalStateJSON {
  yolo: boolean;
  afk: boolean;
  auto_approve_actions: string[];
  /** Session approvals limited to one exact request (kimi-ts; absent in Kimi CLI's files). */
  auto_approve_exact?: { action: string; description: string }[];
}

/** How the policy wants a request handled. */
export interface ApprovalRequestOptions {
  /** Ask even in yolo or when an approval is remembered (secret files, private hosts, ask rules). */
  evenIfAutoApproving?: boolean | undefined;
  /** False: an approve-for-session answer is not remembered (a secret is asked about every time). */
  remember?: boolean | undefined;
  /** A plain approval is remembered for the session too (SearchWeb asks once per session). */
  rememberOnApprove?: boolean | undefined;
  /** The tool call asking (its id, signal and approvals so far); absent: the current one of current-tool-call.ts. */
  call?: ToolCallScope | undefined;
  /** The asking run's wire and approval source (see RunScope); absent: those current in the caller. */
  run?: RunContext | undefined;
}

/** Which swarm the asking agent runs in (null: none), for approvals given "for this swarm". */
export interface AskerSwarm {
  swarmId: string | null;
}

/** The answer to `Approval.request`. */
export class ApprovalResult {
  constructor(
    readonly approved: boolean,
    readonly response: ApprovalResponseKind,
    readonly feedback: string,
    private readonly fromSubagent: boolean,
    /** For approve-for-session: the scope as answered (the policy keeps prefixes and saved rules). */
    /** Absent for an approval given for a swarm: the Approval keeps it, the policy has nothing to keep. */
    readonly answer?: Pick<ApprovalDecision, 'scope' | 'prefix' | 'saveRule'> | undefined,
  ) {}

  /** The error result a tool returns when the user said no. */
  rejectionError(): ToolReturnValue {
    return toolRejectedError({ feedback: this.feedback, fromSubagent: this.fromSubagent });
  }
}

/** The mutable state shared by an `Approval` and every copy made with `share()` (subagents). */
class SharedApprovalState {
  yolo: boolean;
  afk: boolean;
  /** Set for this invocation only (e.g. print mode); never persisted. */
  runtimeAfk = false;
  readonly session: ApprovalScopeSet;
  /** Approvals for the agents of one swarm, until it ends (in memory only). */
  readonly swarms = new SwarmApprovals();

  constructor(
    json: Partial<ApprovalStateJSON>,
    readonly onChange: ((state: ApprovalStateJSON) => void) | undefined,
  ) {
    this.yolo = json.yolo ?? false;
    this.afk = json.afk ?? false;
    this.session = new ApprovalScopeSet([
      ...(json.auto_approve_actions ?? []).map((action): ApprovalScope => ({ scope: 'action', action })),
      ...(json.auto_approve_exact ?? []).map(
        ({ action, description }): ApprovalScope => ({ scope: 'exact', action, description }),
      ),
    ]);
  }

  toJSON(): ApprovalStateJSON {
    return {
      yolo: this.yolo,
      afk: this.afk,
      auto_approve_actions: this.session.actionScopes,
      auto_approve_exact: this.session.exactScopes,
    };
  }

  changed(): void {
    this.onChange?.(this.toJSON());
  }
}

export interface ApprovalOptions {
  runtime?: ApprovalRuntime | undefined;
  state?: Partial<ApprovalStateJSON> | undefined;
  /** Called with the new persisted state after every change (not for runtime-afk). */
  onChange?: ((state: ApprovalStateJSON) => void) | undefined;
  /** Rejects a request nobody answered within this time. Default: wait until answered or cancelled. */
  timeoutMs?: number | undefined;
  /** Approvals kept for this project; approve-for-session answers with `persist` are added there. */
  projectApprovals?: ProjectApprovals | undefined;
  /** Where a failed save of project approvals is reported (the approval itself still stands). */
  onPersistError?: ((error: unknown) => void) | undefined;
  /** The source used when a request is made outside `runWithApprovalSource`. */
  defaultSource?: ApprovalSource | undefined;
}

/**
 * Asks the user before side effects. Requests come only from inside a tool call; yolo, afk and
 * runtime-afk approve on their own; remembered session (and project) approvals answer at once;
 * everything else becomes a record in the `ApprovalRuntime` that a front end answers.
 */
export class Approval {
  readonly runtime: ApprovalRuntime;
  private readonly state: SharedApprovalState;
  private readonly options: ApprovalOptions;

  constructor(options: ApprovalOptions = {}) {
    this.runtime = options.runtime ?? new ApprovalRuntime();
    this.state = new SharedApprovalState(options.state ?? {}, options.onChange);
    this.options = options;
  }

  /** A copy sharing state and runtime (for a subagent). */
  share(): Approval {
    const copy = Object.create(Approval.prototype) as Approval;
    Object.assign(copy, { runtime: this.runtime, state: this.state, options: this.options });
    return copy;
  }

  get yolo(): boolean {
    return this.state.yolo;
  }

  setYolo(yolo: boolean): void {
    if (this.state.yolo === yolo) return;
    this.state.yolo = yolo;
    this.state.changed();
  }

  get afk(): boolean {
    return this.state.afk;
  }

  /** Turning afk off also ends runtime-afk: the user is back. */
  setAfk(afk: boolean): void {
    if (!afk) this.state.runtimeAfk = false;
    if (this.state.afk === afk) return;
    this.state.afk = afk;
    this.state.changed();
  }

  get runtimeAfk(): boolean {
    return this.state.runtimeAfk;
  }

  setRuntimeAfk(runtimeAfk: boolean): void {
    this.state.runtimeAfk = runtimeAfk;
  }

  isAutoApprove(): boolean {
    return this.state.yolo || this.state.afk || this.state.runtimeAfk;
  }

  /**
   * Whether the request is approved already: for the session, for the project, or — asked by an
   * agent of a swarm (the current approval source) — for the agents of that swarm.
   */
  isSessionApproved(action: string, description: string, asker?: AskerSwarm): boolean {
    const swarmId = this.swarmIdOf(asker);
    return (
      this.state.session.covers(action, description) ||
      (this.options.projectApprovals?.covers(action, description) ?? false) ||
      (swarmId !== null && this.state.swarms.covers(swarmId, action, description))
    );
  }

  /** Command prefixes approved for the asking agent's swarm (the policy checks them like its own). */
  approvedPrefixes(toolName: string, asker?: AskerSwarm): readonly string[] {
    const swarmId = this.swarmIdOf(asker);
    return swarmId === null ? [] : this.state.swarms.prefixes(swarmId, toolName);
  }

  /** Remembers a scope for the agents of one swarm and releases their pending requests it covers. */
  approveForSwarm(swarmId: string, scope: ApprovalScope): void {
    this.state.swarms.add(swarmId, scope);
    for (const record of this.runtime.listPending()) {
      if (record.source.swarm_id === swarmId && scopeCovers(scope, record.action, record.description)) {
        this.runtime.resolve(record.id, { response: 'approve' }, { viaSessionCache: true });
      }
    }
  }

  /** The swarm ended: approvals given for its agents no longer cover anything. */
  endSwarm(swarmId: string): void {
    this.state.swarms.end(swarmId);
  }

  /** The asking agent's swarm: the one given, else that of the current approval source. */
  private swarmIdOf(asker: AskerSwarm | undefined): string | null {
    if (asker !== undefined) return asker.swarmId;
    return (currentApprovalSource() ?? this.options.defaultSource)?.swarm_id ?? null;
  }

  /** Remembers a scope for the session and releases every pending request it covers. */
  approveForSession(scope: ApprovalScope): void {
    if (this.state.session.add(scope)) this.state.changed();
    for (const record of this.runtime.listPending()) {
      if (scopeCovers(scope, record.action, record.description)) {
        this.runtime.resolve(record.id, { response: 'approve' }, { viaSessionCache: true });
      }
    }
  }

  toJSON(): ApprovalStateJSON {
    return this.state.toJSON();
  }

  /**
   * Asks for approval of `action` (what approve-for-session remembers) described by `description`
   * (what the user sees, naming the command or file). Must run inside a tool call. Rejects with the
   * abort reason if the tool call is cancelled while waiting; the request is then cancelled too.
   */
  async request(
    sender: string,
    action: string,
    description: string,
    display: DisplayBlock[] = [],
    options: ApprovalRequestOptions = {},
  ): Promise<ApprovalResult> {
    const call = options.call ?? currentToolCallScope();
    if (!call) throw new Error(`Approval for "${action}" was requested outside a tool call`);
    const source = (options.run ? options.run.approvalSource : currentApprovalSource()) ??
      this.options.defaultSource ?? { kind: 'foreground_turn', id: 'default' };
    const fromSubagent = isSubagentSource(source);
    const approved = new ApprovalResult(true, 'approve', '', fromSubagent);
    if (
      !options.evenIfAutoApproving &&
      (this.isAutoApprove() ||
        call.approvedActions.has(action) ||
        this.isSessionApproved(action, description, { swarmId: source.swarm_id ?? null }))
    ) {
      return approved;
    }
    call.signal.throwIfAborted();
    const record = this.runtime.createRequest(
      {
        tool_call_id: call.toolCall.id,
        sender,
        action,
        description,
        display,
        source,
      },
      { wire: options.run?.wire },
    );
    let decision: ApprovalDecision;
    try {
      decision = await this.runtime.waitForResponse(record.id, {
        signal: call.signal,
        timeoutMs: this.options.timeoutMs,
      });
    } catch (error) {
      this.runtime.cancel(record.id, 'The tool call was cancelled.');
      throw error;
    }
    switch (decision.response) {
      case 'approve':
        if (options.remember === false) return approved;
        call.approvedActions.add(action);
        if (options.rememberOnApprove) this.approveForSession({ scope: 'action', action });
        return approved;
      case 'approve_for_session': {
        if (options.remember === false)
          return new ApprovalResult(true, 'approve_for_session', decision.feedback, fromSubagent);
        call.approvedActions.add(action);
        if (decision.forSwarm)
          return this.keepForSwarm(source, decision, sender, action, description, fromSubagent);
        const answer = { scope: decision.scope, prefix: decision.prefix, saveRule: decision.saveRule };
        if (!(decision.scope === 'prefix' && decision.prefix)) {
          const scope = approvalScope(decision.scope, action, description);
          this.approveForSession(scope);
          if (decision.persist) await this.persist(scope);
        }
        return new ApprovalResult(true, 'approve_for_session', decision.feedback, fromSubagent, answer);
      }
      case 'reject':
        return new ApprovalResult(false, 'reject', decision.feedback, fromSubagent);
    }
  }

  /**
   * An approve-for-session given for the asking agent's swarm: kept for that swarm only (a prefix
   * too), never persisted nor saved as a rule. An agent of no swarm gets it as an approval once:
   * the person asked for less than the session, so nothing wider is remembered.
   */
  private keepForSwarm(
    source: ApprovalSource,
    decision: ApprovalDecision,
    toolName: string,
    action: string,
    description: string,
    fromSubagent: boolean,
  ): ApprovalResult {
    const swarmId = source.swarm_id;
    if (!swarmId) return new ApprovalResult(true, 'approve', decision.feedback, fromSubagent);
    const prefix = decision.prefix?.trim();
    if (decision.scope === 'prefix' && prefix) this.state.swarms.addPrefix(swarmId, toolName, prefix);
    else this.approveForSwarm(swarmId, approvalScope(decision.scope, action, description));
    return new ApprovalResult(true, 'approve_for_session', decision.feedback, fromSubagent);
  }

  private async persist(scope: ApprovalScope): Promise<void> {
    const store = this.options.projectApprovals;
    if (!store) return;
    try {
      await store.add(scope);
    } catch (error) {
      this.options.onPersistError?.(error);
    }
  }
}
