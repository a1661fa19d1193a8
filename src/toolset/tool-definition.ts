import { z } from 'zod';
import type { DisplayBlock, JSONSchema, Tool, ToolCall, ToolReturnValue } from '../kosong/index.js';
import type { Effect } from '../policy/index.js';
import type { ToolCallScope } from './current-tool-call.js';
import { type DeclaredParameters, isDeclaredParameters, publishedParameters } from './declared-parameters.js';
import { toolParametersSchema } from './loading/json-schema.js';
import type { RunContext } from './run-scope.js';

/**
 * What running a tool can do to the world. Anything but `read-only` (nothing outside the session)
 * declares its effects per call (`effects()`), and the policy decides on them before the call runs.
 */
export const TOOL_EFFECTS = [
  'read-only',
  'reads-files',
  'writes-files',
  'runs-commands',
  'network',
  'external',
] as const;
export type ToolEffect = (typeof TOOL_EFFECTS)[number];

/** What the user is asked before a side-effecting call runs. `action` is what approve-for-session remembers. */
export interface ApprovalAsk {
  action: string;
  description: string;
  display?: DisplayBlock[] | undefined;
  /**
   * Every call is asked: "approve for the session" approves this call only and is not remembered.
   * For approvals whose future calls the person cannot foresee from this one (a schedule's prompt
   * runs later, unseen: approving one must not approve every later prompt).
   */
  askEveryTime?: boolean | undefined;
}

/** A tool's statement that this particular call needs no question (e.g. writing the plan file), with why. */
export interface AutoApproval {
  autoApprove: string;
}

export type ApprovalPlan = ApprovalAsk | AutoApproval;

export function isAutoApproval(plan: ApprovalPlan): plan is AutoApproval {
  return 'autoApprove' in plan;
}

/** What a running tool gets besides its parameters. */
export interface ToolCallContext {
  readonly toolCall: ToolCall;
  /** Aborted when the call is cancelled; the tool must stop and settle. */
  readonly signal: AbortSignal;
  /**
   * Reports output while the call runs (a command's lines as they come), for front ends to show
   * live. Never read by the model: the tool's result is. Absent where nobody shows it.
   */
  readonly reportOutput?: ((text: string) => void) | undefined;
  /** The run the call is part of (its wire, whose approvals it asks): for the user channel, an external tool. */
  readonly run?: RunContext | undefined;
  /** The call as approvals know it: a tool asking itself passes it (and `run`) to `Approval.request`. */
  readonly scope?: ToolCallScope | undefined;
  /**
   * A person approved this call as a read of secret files (the policy asked it as one): a command
   * then sees, in the sandbox, the workspace's secret files it names.
   */
  readonly secretReadApproved?: boolean | undefined;
}

export type ParseOutcome<P> = { ok: true; params: P } | { ok: false; error: string };

/** A tool as the toolset runs it. Build one with `defineTool`; MCP and external tools implement it directly. */
export interface KimiTool<P = unknown> extends Tool {
  readonly effect: ToolEffect;
  /** Validates the model's arguments. */
  parse(args: unknown): ParseOutcome<P>;
  /** The question to ask before this call runs (side-effecting tools); a generic one is used if absent. */
  approval?(params: P, ctx: ToolCallContext): ApprovalPlan | Promise<ApprovalPlan>;
  /**
   * What this call would do, with real facts (resolved paths, the command, the URL and its
   * addresses). The policy decides on them. A side-effecting tool without it is asked about as a
   * whole (every call, by its arguments).
   */
  effects?(params: P, ctx: ToolCallContext): readonly Effect[] | Promise<readonly Effect[]>;
  call(params: P, ctx: ToolCallContext): ToolReturnValue | Promise<ToolReturnValue>;
}

type EffectsOf<S extends z.ZodType> = (
  params: z.output<S>,
  ctx: ToolCallContext,
) => readonly Effect[] | Promise<readonly Effect[]>;

export interface ToolSpec<S extends z.ZodType> {
  name: string;
  /** Model-facing text, usually from the `.md` beside the tool (see `loadToolDescription`). */
  description: string;
  /** A zod schema, or (kimi-ts's own tools) parameters declared with `declareParameters`. */
  params: S | DeclaredParameters<S>;
  effect: ToolEffect;
  /**
   * What a call would do (see `KimiTool.effects`). A tool whose `effect` is not `read-only` and
   * that leaves this out is never let through unasked: every call is asked about as a whole.
   */
  effects?: EffectsOf<S> | undefined;
  approval?:
    | ((params: z.output<S>, ctx: ToolCallContext) => ApprovalPlan | Promise<ApprovalPlan>)
    | undefined;
  call: (params: z.output<S>, ctx: ToolCallContext) => ToolReturnValue | Promise<ToolReturnValue>;
}

/** Builds a tool whose parameters are a zod schema, published to the model as JSON Schema. */
export function defineTool<S extends z.ZodType>(spec: ToolSpec<S>): KimiTool<z.output<S>> {
  const declared = isDeclaredParameters(spec.params) ? (spec.params as DeclaredParameters<S>) : undefined;
  const schema = (): S => (declared ? declared.schema() : (spec.params as S));
  let parameters: JSONSchema | undefined;
  const tool: KimiTool<z.output<S>> = {
    name: spec.name,
    description: spec.description,
    // Converted when first read (then kept): a tool the request does not offer (the goal tools with no
    // goal set) never pays for the conversion, the costliest part of defining a tool at start. A
    // built-in tool's was made when the bundle was built.
    get parameters(): JSONSchema {
      parameters ??= (declared && publishedParameters(declared.key)) ?? toolParametersSchema(schema());
      return parameters;
    },
    effect: spec.effect,
    parse(args) {
      const result = schema().safeParse(args);
      return result.success
        ? { ok: true, params: result.data }
        : { ok: false, error: z.prettifyError(result.error) };
    },
    call: spec.call,
  };
  if (spec.approval) tool.approval = spec.approval;
  if (spec.effects) tool.effects = spec.effects;
  return tool;
}
