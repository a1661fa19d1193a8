import type { ContentPart, ToolCall } from './message.js';

/** JSON Schema object as published to the model. */
export type JSONSchema = Record<string, unknown>;

/** What the model is told about a tool. */
export interface Tool {
  name: string;
  description: string;
  parameters: JSONSchema;
}

/**
 * Extra information for a UI about a tool result. kosong knows only `brief`; the wire layer defines
 * the other block types (diff, todo, shell, background_task) on the same `{type, ...}` shape.
 */
export interface DisplayBlock {
  type: string;
  [field: string]: unknown;
}

export interface ToolReturnValue {
  is_error: boolean;
  /** What the model reads. */
  output: string | ContentPart[];
  /** An explanation for the model, wrapped in `<system>` tags when the result becomes a message. */
  message: string;
  /** What a UI shows. */
  display: DisplayBlock[];
  extras?: Record<string, unknown> | null;
}

export interface ToolResult {
  tool_call_id: string;
  return_value: ToolReturnValue;
}

export function toolOk(output: string | ContentPart[] = '', message = '', brief = ''): ToolReturnValue {
  return { is_error: false, output, message, display: brief ? [{ type: 'brief', text: brief }] : [] };
}

export function toolError(
  message: string,
  brief: string,
  output: string | ContentPart[] = '',
): ToolReturnValue {
  return { is_error: true, output, message, display: brief ? [{ type: 'brief', text: brief }] : [] };
}

/** What `step` gives a toolset along with each call. */
export interface ToolDispatch {
  /** Aborted when the step is cancelled or fails; the tool must stop and settle. */
  signal: AbortSignal;
  /**
   * Settles when the model's stream has ended: `true` if it finished cleanly, `false` if it failed
   * or was cut. A toolset holds side-effecting work until this is `true`.
   */
  streamOutcome: Promise<boolean>;
}

/**
 * The contract between `step` and the tools. `handle` must never throw and never block: it returns
 * a result at once or a promise of one (a tool future) that settles after `signal` aborts at the
 * latest.
 */
export interface Toolset {
  readonly tools: readonly Tool[];
  handle(call: ToolCall, dispatch: ToolDispatch): ToolResult | Promise<ToolResult>;
}
