import { resolve } from 'node:path';
import { SEARCH_WEB_ACTION } from './approval-actions.js';
import { AskDecision } from './ask-decision.js';
import { showTarget } from './describe-facts.js';
import { type EffectFacts, gatherAllFacts } from './effect-facts.js';
import type { Effect, FileTarget } from './effects.js';
import { fileSecretReason } from './file-secret-reason.js';
import { WorkspaceRoots } from './path-class.js';
import type { PermissionRuleSpec } from './permission-rule.js';
import type { PolicyDecision, PolicyRequest, ToolQuestion } from './policy-decision.js';
import { fallbackQuestion, questionFor, refusal, refusalByRule } from './policy-questions.js';
import { firstProtectedWrite, ProtectedFiles, protectedRefusal } from './protected-files.js';
import { realPathOf } from './real-path.js';
import { RuleSet, type RuleSubject } from './rule-set.js';
import { type PolicySandbox, sandboxExit } from './sandbox-exit.js';
import { type SensitiveHomes, sensitiveReason } from './sensitive-files.js';
import type { CommandPart } from './shell-command.js';

/** The session's modes, read at each decision (the Approval of the toolset provides them). */
export interface PolicyModes {
  readonly yolo: boolean;
  readonly afk: boolean;
  readonly runtimeAfk: boolean;
}

/** Plan mode as the policy reads it at each decision: on or off, and the one file it lets change. */
export interface PlanModeView {
  isActive(): boolean;
  /** The current plan file (absolute), or null before one is chosen. */
  planFilePath(): string | null;
}

/** What the user approved for the rest of the session (or kept for the project). */
export interface SessionApprovalView {
  /** `asker`: the asking agent's swarm, when the request says it. */
  isSessionApproved(action: string, description: string, asker?: { swarmId: string | null }): boolean;
  /** Command prefixes approved for the asking agent alone (its swarm's), besides the session's. */
  approvedPrefixes?(toolName: string, asker?: { swarmId: string | null }): readonly string[];
}

/** An approve-for-session answer, in the terms the person chose. */
export interface RememberedAnswer {
  readonly toolName: string;
  readonly effects: readonly Effect[];
  readonly scope: 'exact' | 'action' | 'prefix';
  readonly prefix?: string | undefined;
  readonly saveRule?: 'project' | 'user' | undefined;
}

/** Where answers saved as rules go (the app's rules files); returns the rules in force after. */
export interface RuleStore {
  save(spec: PermissionRuleSpec, where: 'project' | 'user'): Promise<RuleSet>;
}

export interface SessionPolicyOptions {
  ruleStore?: RuleStore | undefined;
  workDir: string;
  /** Shared with the tools and `/add-dir` (the policy reads it at each decision). */
  additionalDirs: readonly string[];
  homes: SensitiveHomes;
  rules?: RuleSet | undefined;
  /** The session's modes (its Approval), read at each decision; none on when absent. */
  modes?: PolicyModes | undefined;
  /** What the person approved for the session (its Approval); nothing when absent. */
  sessionApprovals?: SessionApprovalView | undefined;
  /** The command sandbox; absent when the person turned it off (`--sandbox off`). */
  sandbox?: PolicySandbox | undefined;
  /** The agent's own configuration files (rules files, trust record, configs loaded). */
  protectedFiles?: ProtectedFiles | undefined;
  /** The session's plan mode, read at each decision; never on when absent. */
  planMode?: PlanModeView | undefined;
  /**
   * Set: nothing goes beyond the sandbox, whoever answers (a fleet worker bounded by --work-root,
   * whose approvals come from whoever can write its Redis): the reason such a call is refused.
   */
  sandboxBound?: string | undefined;
}

const NO_MODES: PolicyModes = { yolo: false, afk: false, runtimeAfk: false };
const NOTHING_APPROVED: SessionApprovalView = { isSessionApproved: () => false };

/**
 * The one place that decides whether a side effect may happen. Order: deny rules; the sensitive
 * classifier (secret files, private addresses); allow/ask rules; session approvals; the mode (yolo
 * / afk / print); the tool's default. Deny beats yolo; secrets are asked even in yolo and refused
 * where no person can answer.
 */
export class SessionPolicy {
  readonly homes: SensitiveHomes;
  readonly roots: WorkspaceRoots;
  private rules: RuleSet;
  private readonly modes: PolicyModes;
  private readonly sessionApprovals: SessionApprovalView;
  private readonly planMode: PlanModeView | undefined;
  private readonly sandboxBound: string | undefined;
  private readonly ruleStore: RuleStore | undefined;
  readonly sandbox: PolicySandbox | undefined;
  private readonly protectedFiles: ProtectedFiles;
  /** Command prefixes approved for the session, per tool. */
  private readonly prefixes = new Map<string, string[]>();

  constructor(options: SessionPolicyOptions) {
    this.ruleStore = options.ruleStore;
    this.sandbox = options.sandbox;
    this.protectedFiles = options.protectedFiles ?? ProtectedFiles.none();
    this.homes = options.homes;
    this.roots = new WorkspaceRoots(options.workDir, options.additionalDirs);
    this.rules = options.rules ?? RuleSet.empty();
    this.modes = options.modes ?? NO_MODES;
    this.sessionApprovals = options.sessionApprovals ?? NOTHING_APPROVED;
    this.planMode = options.planMode;
    this.sandboxBound = options.sandboxBound;
  }

  get workDir(): string {
    return this.roots.workDir;
  }

  get ruleSet(): RuleSet {
    return this.rules;
  }

  setRules(rules: RuleSet): void {
    this.rules = rules;
  }

  /**
   * The same policy (its rules, modes, approvals and remembered prefixes, all live) deciding for
   * another workspace: an isolated subagent's worktree is its workspace and only writable root.
   */
  forWorkspace(workDir: string, additionalDirs: readonly string[] = []): SessionPolicy {
    const view = Object.create(this) as SessionPolicy;
    Object.defineProperty(view, 'roots', { value: new WorkspaceRoots(workDir, additionalDirs) });
    // A rule saved through the view is the session's rule.
    Object.defineProperty(view, 'rules', {
      get: () => this.rules,
      set: (rules: RuleSet) => {
        this.rules = rules;
      },
    });
    return view;
  }

  /**
   * What a file is when writing it changes what the agent or the person's shell does next (rules,
   * config, startup files, git metadata), or null. For writes that kimi-ts makes itself (`/export`).
   */
  protectedReason(target: { absolute: string; real: string }): string | null {
    return this.protectedFiles.reason(target);
  }

  /** Why a file (by its real path) holds secrets, or null: Grep and Glob leave such files out. */
  sensitiveReason(realPath: string): string | null {
    return sensitiveReason(realPath, this.homes);
  }

  /** Why a file (its real path, found by `named`) holds secrets, or null: Grep leaves such files out. */
  async fileSecretReason(realPath: string, named?: string): Promise<string | null> {
    return fileSecretReason(realPath, this.homes, named, true);
  }

  /** Whether a person can answer an approval now (not in print mode, afk, or a background agent). */
  isPersonPresent(background = false): boolean {
    return !background && !this.modes.afk && !this.modes.runtimeAfk;
  }

  async decide(request: PolicyRequest): Promise<PolicyDecision> {
    const gathered = gatherAllFacts(request.effects, this.roots, this.homes, this.sandbox?.state === 'on');
    const facts = gathered instanceof Promise ? await gathered : gathered;
    // One effect's lists as they are (most calls): flatMap runs on V8's slow generic path.
    const only = facts.length === 1 ? facts[0] : undefined;
    const subject: RuleSubject = {
      toolName: request.toolName,
      candidates: only ? only.candidates : facts.flatMap((f) => f.candidates),
      commandParts: only ? (only.command?.analysed ?? []) : facts.flatMap((f) => f.command?.analysed ?? []),
      commandIncomplete: facts.some((f) => f.command?.incomplete === true),
    };

    // Under each name whose rules judge the call: its own first.
    const subjects = [subject, ...(request.ruleNames ?? []).map((toolName) => ({ ...subject, toolName }))];
    // 1. Deny rules, whatever the mode.
    const denied = firstOf(subjects, (s) => this.rules.deny(s));
    if (denied?.decision === 'deny') {
      const why = denied.rule.spec.reason ? `: ${denied.rule.spec.reason}` : '';
      const unsure = denied.uncertain
        ? ` The part \`${denied.uncertain.part}\` cannot be ruled out: ${denied.uncertain.why}.`
        : '';
      return {
        decision: 'deny',
        step: 'deny-rule',
        reason: `Refused by the permission rule \`${denied.rule.spec.pattern}\` (${denied.rule.origin.file})${why}.${unsure} Do not try to get around it.`,
      };
    }

    // 1b. Plan mode: nothing but the plan file changes, whatever rules, approvals or yolo say.
    // Only in plan mode: an await is a microtask every decision would wait on.
    const planRefusal = this.planMode?.isActive() ? await this.planModeRefusal(request.effects) : null;
    if (planRefusal) return { decision: 'deny', step: 'mode', reason: planRefusal };

    // 2. Secret files and private addresses: a person must say yes, every time.
    const present = this.isPersonPresent(request.background);
    const secret = facts.find((f) => f.secret !== undefined);
    const privateHost = facts.find((f) => f.addressClass !== undefined && f.addressClass !== 'public');
    const guarded = secret ?? privateHost;
    // A rule the person wrote for this very host (`FetchURL(domain:localhost)`) is their approval in
    // advance; nothing opens a secret file short of asking.
    if (!secret && privateHost && this.rules.allowsByName(subject))
      return { decision: 'allow', step: 'rule' };
    if (guarded) {
      if (!present)
        return { decision: 'deny', step: secret ? 'sensitive' : 'private-network', reason: refusal(guarded) };
      return this.ask(request, facts, secret ? 'sensitive' : 'private-network', {
        action: secret ? `secret:${guarded.effect.kind}` : 'fetch from a private address',
        secret: true,
      });
    }

    // 2b. The agent's own configuration (rules files, the trust record, configs loaded): a question
    // naming the file every time; no rule, session approval or mode covers it.
    const guardedWrite = firstProtectedWrite(facts, this.protectedFiles);
    if (guardedWrite) {
      if (!present) return { decision: 'deny', step: 'protected', reason: protectedRefusal(guardedWrite) };
      const question = {
        action: `edit protected file: ${guardedWrite.target.real}`,
        description: `Edit ${guardedWrite.what}: ${showTarget(guardedWrite.target)}. It configures the agent (what the next session may do); this approval covers this one edit only.`,
      };
      return this.ask(request, facts, 'protected', { action: question.action, question, secret: true });
    }

    // 2c. A deny rule that might match, depending on an argument an expansion decides: a person says.
    if (denied?.decision === 'ask') {
      const note = `the deny rule \`${denied.rule.spec.pattern}\` might apply to \`${denied.uncertain?.part ?? ''}\`: ${denied.uncertain?.why ?? ''}`;
      return this.ask(request, facts, 'rule', { secret: false, note });
    }

    // 2d. Beyond the sandbox (a command run outside it, or unsandboxed where it cannot run; a file
    // write where a sandboxed command could not write): a person says yes, even in yolo; no rule
    // or mode does. Refused where nobody can answer, unless the person turned the sandbox off.
    const exit = this.sandbox
      ? await sandboxExit(
          this.sandbox,
          request,
          facts,
          this.roots,
          (real) => this.sensitiveReason(real) !== null,
        )
      : null;
    if (exit) {
      if (this.sandboxBound !== undefined)
        return {
          decision: 'deny',
          step: 'sandbox',
          reason: `${this.sandboxBound} Refused: ${exit.question.description.split('\n')[0]}.`,
        };
      if (!present) return { decision: 'deny', step: 'sandbox', reason: exit.refusal };
      if (
        this.sessionApprovals.isSessionApproved(
          exit.question.action,
          exit.question.description,
          askerOf(request),
        )
      )
        return { decision: 'allow', step: 'session-approval' };
      return this.ask(request, facts, 'sandbox', { secret: false, question: exit.question });
    }

    // 3. Allow and ask rules: the first that matches.
    const ruled = firstOf(subjects, (s) => this.rules.allowOrAsk(s));
    if (ruled?.decision === 'allow') return { decision: 'allow', step: 'rule' };
    if (ruled?.decision === 'ask') return this.ask(request, facts, 'rule', { secret: false });

    const question = questionFor(request, facts);
    if (question === null) return { decision: 'allow', step: 'tool-default' };
    // 4. Remembered approvals (a command prefix covers a command only if it covers every part).
    // Like allow rules: not for a command the parser could not read whole (what it missed, bash may run).
    if (!subject.commandIncomplete && this.prefixCovers(request, subject.commandParts ?? [])) {
      return { decision: 'allow', step: 'session-approval' };
    }
    if (this.sessionApprovals.isSessionApproved(question.action, question.description, askerOf(request))) {
      return { decision: 'allow', step: 'session-approval' };
    }
    // 5. The mode.
    if (this.modes.yolo || this.modes.afk || this.modes.runtimeAfk)
      return { decision: 'allow', step: 'mode' };
    // 6. The tool's default: ask.
    return this.ask(request, facts, 'tool-default', { secret: false });
  }

  /**
   * In plan mode a write to any file but the current plan file is refused (Kimi CLI's message). Shell
   * stays as in Kimi CLI: the plan-mode reminder tells the model to change nothing.
   */
  private async planModeRefusal(effects: readonly Effect[]): Promise<string | null> {
    if (!this.planMode?.isActive() || !effects.some((e) => e.kind === 'write')) return null;
    const planFile = this.planMode.planFilePath();
    const planPath = planFile === null ? null : resolve(planFile);
    const planReal = planPath === null ? null : await realPathOf(planPath);
    // The plan file by name and not through a symlink, or the plan file where it really is.
    const isPlanFile = (t: FileTarget) => t.real === planReal || (!t.viaSymlink && t.absolute === planPath);
    const elsewhere = effects.some((e) => e.kind === 'write' && !isPlanFile(e.target));
    if (!elsewhere) return null;
    return `Plan mode is active. You may only edit the current plan file: \`${planFile ?? '(none)'}\`.`;
  }

  /**
   * Keeps an approve-for-session answer the Approval cannot keep itself (a command prefix), and
   * saves it as an allow rule when the person asked to. Returns a problem to report, or null.
   */
  async remember(answer: RememberedAnswer): Promise<string | null> {
    const prefix = answer.prefix?.trim();
    if (answer.scope === 'prefix' && prefix) {
      this.prefixes.set(answer.toolName, [...(this.prefixes.get(answer.toolName) ?? []), prefix]);
    }
    if (!answer.saveRule) return null;
    if (!this.ruleStore) return 'rules cannot be saved here';
    const pattern = rulePatternFor(answer, prefix);
    if (!pattern) return 'this answer cannot be written as a rule (the command holds * or ?)';
    try {
      this.rules = await this.ruleStore.save(
        { decision: 'allow', pattern, scope: answer.saveRule },
        answer.saveRule,
      );
      return null;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }

  /** The command prefixes approved for the session (for `/permissions`). */
  sessionPrefixes(): { toolName: string; prefix: string }[] {
    return [...this.prefixes].flatMap(([toolName, list]) => list.map((prefix) => ({ toolName, prefix })));
  }

  /** A prefix covers simple parts only: what it names (`git status`) is then what runs. */
  private prefixCovers(request: PolicyRequest, parts: readonly CommandPart[]): boolean {
    const { toolName } = request;
    const prefixes = [
      ...(this.prefixes.get(toolName) ?? []),
      ...(this.sessionApprovals.approvedPrefixes?.(toolName, askerOf(request)) ?? []),
    ];
    if (prefixes.length === 0 || parts.length === 0) return false;
    return parts.every(({ literal }) =>
      prefixes.some((p) => literal !== null && (literal === p || literal.startsWith(`${p} `))),
    );
  }

  private ask(
    request: PolicyRequest,
    facts: readonly EffectFacts[],
    step: PolicyDecision['step'],
    options: { action?: string; secret: boolean; note?: string; question?: ToolQuestion },
  ): PolicyDecision {
    const present = this.isPersonPresent(request.background);
    const evenIfAutoApproving = options.secret || step === 'rule' || step === 'sandbox';
    if (evenIfAutoApproving && !present) {
      return { decision: 'deny', step, reason: refusalByRule(request.toolName) };
    }
    const base = options.question ?? questionFor(request, facts) ?? fallbackQuestion(request.toolName, facts);
    return new AskDecision(
      step,
      options.action ?? base.action,
      options.secret,
      evenIfAutoApproving,
      !options.secret && base.action === SEARCH_WEB_ACTION,
      { base, facts, note: options.note },
    );
  }
}

function firstOf<T, R>(items: readonly T[], pick: (item: T) => R | null): R | null {
  for (const item of items) {
    const found = pick(item);
    if (found !== null) return found;
  }
  return null;
}

/** The allow rule an answer stands for: `Shell(git *)`, `WriteFile(/real/path)`, `FetchURL(domain:h)`, `Tool`. */
function rulePatternFor(answer: RememberedAnswer, prefix: string | undefined): string | null {
  const tool = answer.toolName;
  if (answer.scope === 'action') return tool;
  if (answer.scope === 'prefix' && prefix) return /[*?]/.test(prefix) ? null : `${tool}(${prefix} *)`;
  const effect = answer.effects[0];
  if (!effect) return tool;
  switch (effect.kind) {
    case 'exec':
      return /[*?]/.test(effect.command) ? null : `${tool}(${effect.command.trim()})`;
    case 'read':
    case 'write':
      return /[*?]/.test(effect.target.real) ? null : `${tool}(${effect.target.real})`;
    case 'network':
      return `${tool}(domain:${effect.host})`;
    case 'external':
      return tool;
  }
}

/** The asking agent's swarm as the request says it (undefined: it does not). */
const askerOf = (r: PolicyRequest) => (r.swarmId === undefined ? undefined : { swarmId: r.swarmId });
