import type { HookEngine } from '../hooks/types.js';
import type { ToolCall, ToolDispatch, ToolReturnValue } from '../kosong/index.js';
import type { Effect, PolicyDecision, SessionPolicy } from '../policy/index.js';
import type { WireMessage } from '../wire/message.js';
import { callTool } from './ambient-tool-context.js';
import type { Approval } from './approval/approval.js';
import type { ToolCallScope } from './current-tool-call.js';
import { LiveOutput } from './live-output.js';
import { canonicalJson } from './repeat/canonical-json.js';
import { type RunContext, RunScope, reporterOn } from './run-scope.js';
import type { ToolCallOutcome } from './telemetry.js';
import { type ApprovalPlan, isAutoApproval, type KimiTool, type ToolCallContext } from './tool-definition.js';
import {
  isToolRejection,
  toolCancelledError,
  toolHookBlockedError,
  toolNoApprovalError,
  toolNotRunError,
  toolPolicyDeniedError,
  toolRuntimeError,
  toolValidateError,
} from './tool-errors.js';

export interface ToolCallRun {
  tool: KimiTool;
  call: ToolCall;
  /** The parsed JSON arguments. */
  args: unknown;
  dispatch: ToolDispatch;
  approval: Approval | undefined;
  /** Decides on the call's effects (and asks the tool's own question through `approval`). */
  policy: SessionPolicy;
  hooks: HookEngine;
  /** Awaited right before a side-effecting tool runs (the files' checkpoint for `/rewind`). */
  beforeSideEffect?: ((signal: AbortSignal) => Promise<void>) | undefined;
  /** Once the response has ended, why a side-effecting call of it must not run (AgentSwarm runs alone); null: it may. */
  refusalAtStreamEnd?: (() => string | null) | undefined;
  /** The soul's run context (its wire, its approval source): the call keeps the one its start saw. */
  runScope?: RunScope | undefined;
}

export interface ToolCallRunResult {
  value: ToolReturnValue;
  outcome: ToolCallOutcome;
  durationMs: number;
}

/** PostToolUse gets this much of the result's text. */
const HOOK_OUTPUT_LIMIT = 2_000;

/**
 * Runs one tool call: validate, PreToolUse hook, approval (every side-effecting tool, whatever its
 * code does), wait for a clean end of the model's stream (side-effecting tools only), call, then
 * the PostToolUse hooks without waiting for them. Never rejects: every failure becomes a result.
 */
export function runToolCall(run: ToolCallRun): Promise<ToolCallRunResult> {
  const started = performance.now();
  const scope: ToolCallScope = {
    toolCall: run.call,
    signal: run.dispatch.signal,
    approvedActions: new Set(),
  };
  let streamClean: boolean | undefined;
  run.dispatch.streamOutcome.then(
    (clean) => {
      streamClean = clean;
    },
    () => {
      streamClean = false;
    },
  );
  const finish = (value: ToolReturnValue, outcome: ToolCallOutcome): ToolCallRunResult => ({
    value,
    outcome,
    durationMs: performance.now() - started,
  });
  const interrupted = (): ToolCallRunResult | undefined => {
    if (streamClean === false) return finish(toolNotRunError(), 'not_run');
    if (run.dispatch.signal.aborted) return finish(toolCancelledError(), 'cancelled');
    return undefined;
  };

  // Passed down explicitly, not through an AsyncLocalStorage (see RunScope): concurrent calls each
  // have their own scope and context.
  const runContext = (run.runScope ?? new RunScope()).current();
  const report = reporterOn(runContext.wire);
  return (async () => {
    const { tool, call, args, dispatch } = run;
    const live = new LiveOutput(call.id, runContext.wire);
    const ctx: ToolCallContext = {
      toolCall: call,
      signal: dispatch.signal,
      reportOutput: live.report,
      run: runContext,
      scope,
    };
    const sideEffecting = tool.effect !== 'read-only' && tool.effect !== 'reads-files';
    try {
      const parsed = tool.parse(args);
      if (!parsed.ok) return finish(toolValidateError(parsed.error), 'error');
      const blocked = await preToolUse(run, report);
      const stop = interrupted();
      if (stop) return stop;
      if (blocked !== null) return finish(toolHookBlockedError(blocked), 'blocked');

      const refused = await decideByPolicy(run, { scope, runContext }, parsed.params, ctx, interrupted);
      const secretReadApproved = refused === SECRET_READ_APPROVED;
      if (refused && !secretReadApproved) return finish(refused.value, refused.outcome);
      if (sideEffecting) {
        const clean = await untilStreamEnds(dispatch);
        if (!clean) return interrupted() ?? finish(toolNotRunError(), 'not_run');
        const refusal = run.refusalAtStreamEnd?.() ?? null;
        if (refusal !== null) return finish(toolPolicyDeniedError(refusal), 'rejected');
        await run.beforeSideEffect?.(dispatch.signal);
      }

      dispatch.signal.throwIfAborted();
      let value: ToolReturnValue;
      try {
        const called = secretReadApproved ? { ...ctx, secretReadApproved } : ctx;
        value = await callTool(tool, parsed.params, called, scope, runContext);
      } finally {
        live.close();
      }
      if (!isToolReturnValue(value)) {
        throw new Error(`the tool returned ${describe(value)} instead of a tool result`);
      }
      firePostToolUse(run, { tool_output: hookOutput(value) }, 'PostToolUse', report);
      return finish(value, value.is_error ? (isToolRejection(value) ? 'rejected' : 'error') : 'ok');
    } catch (error) {
      const stop = interrupted();
      if (stop) return stop;
      firePostToolUse(
        run,
        { error: error instanceof Error ? error.message : String(error) },
        'PostToolUseFailure',
        report,
      );
      return finish(toolRuntimeError(error), 'runtime_error');
    }
  })();
}

type Refusal = { value: ToolReturnValue; outcome: ToolCallOutcome };

/** The call may run, and a person approved it as a read of secret files (it sees those it names). */
const SECRET_READ_APPROVED = Symbol('secret read approved');

/**
 * Hands the call's effects (and the tool's own question, if any) to the policy, then acts on its
 * decision: refuse with the reason, ask the person, or go ahead. Null when the call may run.
 */
async function decideByPolicy(
  run: ToolCallRun,
  asker: { scope: ToolCallScope; runContext: RunContext },
  params: unknown,
  ctx: ToolCallContext,
  interrupted: () => ToolCallRunResult | undefined,
): Promise<Refusal | ToolCallRunResult | typeof SECRET_READ_APPROVED | null> {
  const { tool, policy } = run;
  const source = asker.runContext.approvalSource;
  const plan: ApprovalPlan | undefined = tool.approval
    ? await tool.approval(params, ctx)
    : tool.effect !== 'read-only' && !tool.effects
      ? genericApprovalPlan(tool, run.args)
      : undefined;
  const effects: readonly Effect[] = tool.effects
    ? await tool.effects(params, ctx)
    : undeclaredEffects(tool, plan, run.args);
  if (effects.length === 0 && plan === undefined) return null;
  const decision: PolicyDecision = await policy.decide({
    toolName: tool.name,
    effects,
    question: plan === undefined ? undefined : isAutoApproval(plan) ? 'none-needed' : plan,
    background: source?.kind === 'background_agent',
    // Not known (no source): the approvals fall back to their default source's swarm.
    swarmId: source ? (source.swarm_id ?? null) : undefined,
  });
  switch (decision.decision) {
    case 'allow':
      return null;
    case 'deny':
      return { value: toolPolicyDeniedError(decision.reason), outcome: 'rejected' };
    case 'ask': {
      const remember =
        !decision.secret && !(plan !== undefined && !isAutoApproval(plan) && plan.askEveryTime);
      if (!run.approval) return { value: toolNoApprovalError(tool.name), outcome: 'rejected' };
      const stop = interrupted();
      if (stop) return stop;
      const answer = await run.approval.request(
        tool.name,
        decision.action,
        decision.description,
        [...decision.display],
        {
          evenIfAutoApproving: decision.evenIfAutoApproving,
          remember,
          rememberOnApprove: decision.rememberApproval,
          call: asker.scope,
          run: asker.runContext,
        },
      );
      if (!answer.approved) return { value: answer.rejectionError(), outcome: 'rejected' };
      if (answer.response === 'approve_for_session' && answer.answer && remember) {
        // A failed save leaves the approval standing; the rule is simply not written.
        await policy.remember({ toolName: tool.name, effects, ...answer.answer });
      }
      return decision.secret && decision.step === 'sensitive' ? SECRET_READ_APPROVED : null;
    }
  }
}

/**
 * A tool that touches the world but does not declare its effects is never let through unasked:
 * the whole call (its full arguments) is one effect the person must approve.
 */
function undeclaredEffects(tool: KimiTool, plan: ApprovalPlan | undefined, args: unknown): Effect[] {
  if (tool.effect === 'read-only') return [];
  const asked = plan && !isAutoApproval(plan) ? plan : genericApprovalPlan(tool, args);
  if (isAutoApproval(asked)) return [];
  return [{ kind: 'external', action: asked.action }];
}

/** Returns the block reason, or null when the call may go ahead. Hooks fail open. */
async function preToolUse(run: ToolCallRun, report: (message: WireMessage) => void): Promise<string | null> {
  if (!run.hooks.hasHooksFor('PreToolUse')) return null;
  try {
    const decision = await run.hooks.trigger('PreToolUse', {
      target: run.tool.name,
      input: { tool_name: run.tool.name, tool_input: run.args, tool_call_id: run.call.id },
      signal: run.dispatch.signal,
      report,
    });
    return decision.action === 'block' ? decision.reason : null;
  } catch {
    return null;
  }
}

function firePostToolUse(
  run: ToolCallRun,
  extra: Record<string, unknown>,
  event: 'PostToolUse' | 'PostToolUseFailure',
  report: (message: WireMessage) => void,
): void {
  if (!run.hooks.hasHooksFor(event)) return;
  const input = { tool_name: run.tool.name, tool_input: run.args, tool_call_id: run.call.id, ...extra };
  // Not awaited: these hooks observe, they cannot change the result. `fire` keeps them tracked so
  // the session can drain them at shutdown.
  void run.hooks.fire(event, { target: run.tool.name, input, report });
}

/** The question asked for a side-effecting tool that does not phrase its own: the full arguments, so an exact approval covers only this call. */
export function genericApprovalPlan(tool: KimiTool, args: unknown): ApprovalPlan {
  return {
    action: `${tool.effect}:${tool.name}`,
    description: `Call \`${tool.name}\` (${EFFECT_WORDS[tool.effect]}) with arguments ${canonicalJson(args)}`,
  };
}

const EFFECT_WORDS: Record<KimiTool['effect'], string> = {
  'read-only': 'reads only',
  'reads-files': 'reads files',
  'writes-files': 'writes files',
  'runs-commands': 'runs commands',
  network: 'uses the network',
  external: 'acts outside this program',
};

/** Resolves true on a clean end of the model's stream, false if it failed or the call was aborted. */
function untilStreamEnds(dispatch: ToolDispatch): Promise<boolean> {
  if (dispatch.signal.aborted) return Promise.resolve(false);
  return new Promise<boolean>((resolve) => {
    const onAbort = (): void => resolve(false);
    dispatch.signal.addEventListener('abort', onAbort, { once: true });
    dispatch.streamOutcome.then(
      (clean) => {
        dispatch.signal.removeEventListener('abort', onAbort);
        resolve(clean);
      },
      () => {
        dispatch.signal.removeEventListener('abort', onAbort);
        resolve(false);
      },
    );
  });
}

function hookOutput(value: ToolReturnValue): string {
  const text = typeof value.output === 'string' ? value.output : JSON.stringify(value.output);
  const prefix = value.is_error ? `ERROR: ${value.message}\n` : value.message ? `${value.message}\n` : '';
  return (prefix + text).slice(0, HOOK_OUTPUT_LIMIT);
}

function isToolReturnValue(value: unknown): value is ToolReturnValue {
  if (value === null || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.is_error === 'boolean' &&
    (typeof v.output === 'string' || Array.isArray(v.output)) &&
    typeof v.message === 'string' &&
    Array.isArray(v.display)
  );
}

function describe(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}
