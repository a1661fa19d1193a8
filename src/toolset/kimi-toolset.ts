import { createHash } from 'node:crypto';
import { type HookEngine, noHooks } from '../hooks/types.js';
import type { Tool, ToolCall, ToolDispatch, ToolResult, ToolReturnValue, Toolset } from '../kosong/index.js';
import type { SessionPolicy } from '../policy/index.js';
import type { SecretRegistry } from '../policy/secrets.js';
import type { Approval } from './approval/approval.js';
import type { ToolDependencyTable } from './loading/dependencies.js';
import type { ModuleResolutionOptions } from './loading/module-resolution.js';
import { type LoadedTools, loadTools } from './loading/tool-loader.js';
import { argumentsHash, canonicalJson, normaliseWhitespace } from './repeat/canonical-json.js';
import { DEFAULT_REPEAT_POLICY, type RepeatPolicy, type RepeatTier } from './repeat/repeat-detector.js';
import { appendReminder, repeatReminderText } from './repeat/repeat-reminder.js';
import { RepeatTracker, type StepCall } from './repeat/repeat-tracker.js';
import { RunScope } from './run-scope.js';
import { AGENT_SWARM_TOOL, SwarmAloneRule } from './swarm-alone.js';
import { type DuplicateType, noTelemetry, recordSafely, type ToolTelemetrySink } from './telemetry.js';
import { parseToolArguments } from './tool-arguments.js';
import { runToolCall, type ToolCallRunResult } from './tool-call-runner.js';
import type { KimiTool } from './tool-definition.js';
import {
  toolNotFoundError,
  toolParseError,
  toolPolicyDeniedError,
  toolSecretArgumentsError,
} from './tool-errors.js';

export interface KimiToolsetOptions {
  /** Asks the person; without it side-effecting calls are refused. */
  approval?: Approval | undefined;
  /**
   * Decides every call's effects (`createSessionPolicy` in the app; the session's one policy for a
   * subagent too). Required: a toolset never runs a call on a policy it made up.
   */
  policy: SessionPolicy;
  hooks?: HookEngine | undefined;
  telemetry?: ToolTelemetrySink | undefined;
  repeatPolicy?: RepeatPolicy | undefined;
  /** Calls carrying one of these are refused; every result has them redacted. */
  secrets?: SecretRegistry | undefined;
}

/**
 * kimi-ts's toolset: the registry of tools and the dispatcher `step` hands every tool call to.
 * Calls of a step run concurrently; an identical call later in the same step shares the first
 * one's result; repeats across steps get growing reminders and, at the last tier, stop the turn.
 * The soul brackets every step with `beginStep` / `endStep` (repeat detection depends on it).
 */
export class KimiToolset implements Toolset {
  readonly approval: Approval | undefined;
  /** The policy deciding this toolset's calls, from its construction on. */
  readonly policy: SessionPolicy;
  private readonly hooks: HookEngine;
  private readonly telemetry: ToolTelemetrySink;
  private readonly secrets: SecretRegistry | undefined;
  private readonly registry = new Map<string, KimiTool>();
  private readonly hidden = new Set<string>();
  private readonly tracker: RepeatTracker;
  /**
   * First run of each exact call key, per step. `step` hands every call of one step the same
   * dispatch object, so keying on it scopes dedup to the step even if `beginStep` is not called.
   */
  private readonly runsByStep = new WeakMap<ToolDispatch, Map<string, Promise<ToolCallRunResult>>>();
  private readonly swarmAlone = new SwarmAloneRule();
  private sideEffectGate: ((signal: AbortSignal) => Promise<void>) | undefined;
  /** Raw results of the current step's calls, in call order. */
  private stepResults: Promise<unknown>[] = [];
  /** The run context of the soul using this toolset (it enters it for each run); every call reads it. */
  readonly runScope = new RunScope();

  constructor(options: KimiToolsetOptions) {
    this.approval = options.approval;
    this.policy = options.policy;
    this.hooks = options.hooks ?? noHooks;
    this.telemetry = options.telemetry ?? noTelemetry;
    this.secrets = options.secrets;
    this.tracker = new RepeatTracker(options.repeatPolicy ?? DEFAULT_REPEAT_POLICY);
  }

  /**
   * Awaited before every side-effecting tool runs (after its approval): the checkpoint of the files
   * that `/rewind` returns to is recorded first.
   */
  setSideEffectGate(gate: ((signal: AbortSignal) => Promise<void>) | undefined): void {
    this.sideEffectGate = gate;
  }

  /** The tools advertised to the model (hidden ones left out). */
  get tools(): Tool[] {
    const visible: Tool[] = [];
    for (const tool of this.registry.values()) {
      if (!this.hidden.has(tool.name))
        visible.push({ name: tool.name, description: tool.description, parameters: tool.parameters });
    }
    return visible;
  }

  /** Every registered tool, hidden or not. */
  get allTools(): KimiTool[] {
    return [...this.registry.values()];
  }

  add(tool: KimiTool): void {
    if (this.registry.has(tool.name)) throw new Error(`A tool named "${tool.name}" is already registered`);
    this.registry.set(tool.name, tool);
  }

  remove(name: string): boolean {
    this.hidden.delete(name);
    return this.registry.delete(name);
  }

  /**
   * Puts `make(current)` in the place of the tool named `name` (hidden or not, it stays so), e.g. a
   * front end running a tool its own way. The replacement must keep the name. False when there is
   * no such tool.
   */
  replace(name: string, make: (current: KimiTool) => KimiTool): boolean {
    const current = this.registry.get(name);
    if (!current) return false;
    const replacement = make(current);
    if (replacement.name !== name) {
      throw new Error(`A replacement for tool "${name}" must keep its name (got "${replacement.name}")`);
    }
    this.registry.set(name, replacement);
    return true;
  }

  find(name: string): KimiTool | undefined {
    return this.registry.get(name);
  }

  /** Stops advertising a tool; it stays callable. Returns false if there is no such tool. */
  hide(name: string): boolean {
    if (!this.registry.has(name)) return false;
    this.hidden.add(name);
    return true;
  }

  unhide(name: string): boolean {
    return this.hidden.delete(name);
  }

  /**
   * Loads tools from `"module:Export"` specs and registers them. `toolset`, `approval` and the
   * toolset's `policy` are added to the dependency table. A name already registered is a load failure.
   */
  async loadTools(
    specs: readonly string[],
    deps: ToolDependencyTable,
    options: ModuleResolutionOptions,
  ): Promise<LoadedTools> {
    const table: ToolDependencyTable = { ...deps, toolset: this };
    if (this.approval && !table.approval) table.approval = this.approval;
    // The tools decide (Grep's secret files, Glob's listing) by the policy that decides their calls.
    table.policy = this.policy;
    const loaded = await loadTools(specs, table, options);
    const taken = loaded.tools.find((tool) => this.registry.has(tool.name));
    if (taken) throw new Error(`A tool named "${taken.name}" is already registered`);
    for (const tool of loaded.tools) this.add(tool);
    return loaded;
  }

  /**
   * Starts a step (Kimi CLI's `begin_step`): pass what the previous `endStep` returned, or nothing
   * at the start of a turn (or after a D-Mail) to forget the turn's calls.
   */
  beginStep(previousCalls: readonly StepCall[] = []): void {
    this.tracker.beginStep(previousCalls);
    this.stepResults = [];
  }

  /** Ends the step; keep the returned calls for the next `beginStep`. Idempotent within a step. */
  endStep(): StepCall[] {
    return this.tracker.endStep();
  }

  /** A call of this step reached the force-stop tier: the turn must end (`tool_call_repeat`). */
  get forceStopTurn(): boolean {
    return this.tracker.forceStop;
  }

  /**
   * Runs a call the runtime makes on the model's behalf (a goal's check) exactly as a model's call
   * runs (hooks, policy, approval, sandbox, secrets redacted) but outside the step's bookkeeping: it
   * is no call of the step, so repeat detection neither counts it nor waits on the call that made it.
   */
  async runOnBehalf(call: ToolCall, dispatch: ToolDispatch): Promise<ToolResult> {
    const result = (return_value: ToolReturnValue): ToolResult => ({
      tool_call_id: call.id,
      return_value: this.secrets ? this.secrets.redactDeep(return_value) : return_value,
    });
    const tool = this.registry.get(call.function.name);
    if (!tool) return result(toolNotFoundError(call.function.name));
    const parsed = parseToolArguments(call.function.arguments);
    if (!parsed.ok) return result(toolParseError(parsed.error));
    const outcome = await runToolCall({
      tool,
      call,
      args: parsed.value,
      dispatch,
      approval: this.approval,
      policy: this.policy,
      hooks: this.hooks,
      beforeSideEffect: this.sideEffectGate,
      runScope: this.runScope,
    });
    return result(outcome.value);
  }

  /** Runs a call of the model; an AgentSwarm call only once its response turned out to hold nothing else. */
  private async startRun(
    tool: KimiTool,
    call: ToolCall,
    args: unknown,
    dispatch: ToolDispatch,
  ): Promise<ToolCallRunResult> {
    if (tool.name === AGENT_SWARM_TOOL) {
      const refusal = await this.swarmAlone.refusalOfSwarm(dispatch);
      if (refusal !== null)
        return { value: toolPolicyDeniedError(refusal), outcome: 'rejected', durationMs: 0 };
    }
    return runToolCall({
      tool,
      call,
      args,
      dispatch,
      approval: this.approval,
      policy: this.policy,
      hooks: this.hooks,
      beforeSideEffect: this.sideEffectGate,
      runScope: this.runScope,
      refusalAtStreamEnd: () => this.swarmAlone.refusalAtEnd(dispatch),
    });
  }

  handle(call: ToolCall, dispatch: ToolDispatch): ToolResult | Promise<ToolResult> {
    // Whatever a tool returns goes to the model's context, the wire and its file: no secret in it.
    const result = (return_value: ToolReturnValue): ToolResult => ({
      tool_call_id: call.id,
      return_value: this.secrets ? this.secrets.redactDeep(return_value) : return_value,
    });
    const tool = this.registry.get(call.function.name);
    if (!tool) return result(toolNotFoundError(call.function.name));
    const parsed = parseToolArguments(call.function.arguments);
    if (!parsed.ok) return result(toolParseError(parsed.error));
    const args = parsed.value;
    const secret = this.secrets?.findInValue(args);
    if (secret) return result(toolSecretArgumentsError(secret.source));
    const afterSwarm = this.swarmAlone.register(dispatch, tool.name);
    if (afterSwarm !== null) return result(toolPolicyDeniedError(afterSwarm));

    const canonicalArguments = canonicalJson(args);
    const callKey = JSON.stringify([tool.name, canonicalArguments]);
    const policy = this.tracker.policy;
    const loopKey = policy.normaliseWhitespace
      ? JSON.stringify([tool.name, canonicalJson(normaliseWhitespace(args))])
      : callKey;
    const stepCall: StepCall = { toolName: tool.name, callKey, loopKey };
    this.tracker.register(stepCall);
    const crossStep = this.tracker.seenInEarlierStep(loopKey);

    let stepRuns = this.runsByStep.get(dispatch);
    if (!stepRuns) {
      stepRuns = new Map();
      this.runsByStep.set(dispatch, stepRuns);
    }
    const first = stepRuns.get(callKey);
    const started = performance.now();
    const run: Promise<ToolCallRunResult> = first
      ? first.then((original) => ({
          ...original,
          value: copyReturnValue(original.value),
          durationMs: performance.now() - started,
        }))
      : this.startRun(tool, call, args, dispatch);
    if (!first) stepRuns.set(callKey, run);
    const settled = run.then((outcome) => {
      stepCall.resultId = resultIdentity(outcome.value);
      return outcome;
    });
    const earlier = this.stepResults;
    this.stepResults = [...earlier, settled];
    const duplicate: DuplicateType = first ? 'same_step' : crossStep ? 'cross_step' : 'none';

    return (async () => {
      const outcome = await settled;
      let value = outcome.value;
      let tier: RepeatTier | null = null;
      let count = 1;
      if (crossStep) {
        // Judge the repeat only once every earlier call of the step has its result, so the verdict
        // does not depend on which tool happened to finish first.
        await Promise.all(earlier);
        const assessment = this.tracker.assess(stepCall);
        tier = assessment?.tier ?? null;
        count = assessment?.count ?? 1;
        const reminder =
          assessment && repeatReminderText(assessment, { toolName: tool.name, canonicalArguments });
        if (assessment?.tier && reminder) {
          value = appendReminder(value, reminder);
          recordSafely(this.telemetry, {
            event: 'tool_call_repeat',
            tool_name: tool.name,
            tool_call_id: call.id,
            args_hash: argumentsHash(canonicalArguments),
            repeat_tier: assessment.tier,
            repeat_count: assessment.count,
            repeat_period: assessment.period,
          });
        }
      }
      recordSafely(this.telemetry, {
        event: 'tool_call',
        tool_name: tool.name,
        tool_call_id: call.id,
        outcome: outcome.outcome,
        duration_ms: Math.round(outcome.durationMs),
        duplicate_type: duplicate,
        args_hash: argumentsHash(canonicalArguments),
        repeat_tier: tier,
        repeat_count: count,
      });
      return result(value);
    })();
  }
}

/** Identical results get identical ids (what the "no progress" test of loop detection compares). */
function resultIdentity(value: ToolReturnValue): string {
  const essence = canonicalJson({ is_error: value.is_error, output: value.output, message: value.message });
  return createHash('sha256').update(essence).digest('hex').slice(0, 16);
}

/** A copy for a same-step duplicate, so neither result can change the other. */
function copyReturnValue(value: ToolReturnValue): ToolReturnValue {
  try {
    return structuredClone(value);
  } catch {
    // A tool put something uncloneable (a function) in extras: a shallow copy still separates the lists.
    const output = typeof value.output === 'string' ? value.output : [...value.output];
    return { ...value, output, display: [...value.display] };
  }
}

declare module './loading/dependencies.js' {
  interface ToolDependencyMap {
    /** The toolset the tool is loaded into. */
    toolset: KimiToolset;
  }
}
