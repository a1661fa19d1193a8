import { z } from 'zod';
import type { DisplayBlock, Tool, ToolCall, ToolReturnValue } from '../kosong/index.js';
import { toolParametersSchema } from './json-schema.js';

/**
 * What running a tool can do to the world. Anything but `read-only` needs an approval decision
 * before the toolset lets the call run.
 */
export const TOOL_EFFECTS = ['read-only', 'writes-files', 'runs-commands', 'network', 'external'] as const;
export type ToolEffect = (typeof TOOL_EFFECTS)[number];

/** What the user is asked before a side-effecting call runs. `action` is what approve-for-session remembers. */
export interface ApprovalAsk {
  action: string;
  description: string;
  display?: DisplayBlock[] | undefined;
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
}

export type ParseOutcome<P> = { ok: true; params: P } | { ok: false; error: string };

/** A tool as the toolset runs it. Build one with `defineTool`; MCP and external tools implement it directly. */
export interface KimiTool<P = unknown> extends Tool {
  readonly effect: ToolEffect;
  /** Validates the model's arguments. */
  parse(args: unknown): ParseOutcome<P>;
  /** The question to ask before this call runs (side-effecting tools); a generic one is used if absent. */
  approval?(params: P, ctx: ToolCallContext): ApprovalPlan | Promise<ApprovalPlan>;
  call(params: P, ctx: ToolCallContext): ToolReturnValue | Promise<ToolReturnValue>;
}

export interface ToolSpec<S extends z.ZodType> {
  name: string;
  /** Model-facing text, usually from the `.md` beside the tool (see `loadToolDescription`). */
  description: string;
  params: S;
  effect: ToolEffect;
  approval?:
    | ((params: z.output<S>, ctx: ToolCallContext) => ApprovalPlan | Promise<ApprovalPlan>)
    | undefined;
  call: (params: z.output<S>, ctx: ToolCallContext) => ToolReturnValue | Promise<ToolReturnValue>;
}

/** Builds a tool whose parameters are a zod schema, published to the model as JSON Schema. */
export function defineTool<S extends z.ZodType>(spec: ToolSpec<S>): KimiTool<z.output<S>> {
  const parameters = toolParametersSchema(spec.params);
  const tool: KimiTool<z.output<S>> = {
    name: spec.name,
    description: spec.description,
    parameters,
    effect: spec.effect,
    parse(args) {
      const result = spec.params.safeParse(args);
      return result.success
        ? { ok: true, params: result.data }
        : { ok: false, error: z.prettifyError(result.error) };
    },
    call: spec.call,
  };
  if (spec.approval) tool.approval = spec.approval;
  return tool;
}
