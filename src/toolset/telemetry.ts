import type { RepeatTier } from './repeat/repeat-detector.js';

export type ToolCallOutcome =
  | 'ok'
  | 'error'
  | 'runtime_error'
  | 'rejected'
  | 'blocked'
  | 'not_run'
  | 'cancelled';

/** `same_step`: shared another call's result; `cross_step`: repeated a call of an earlier step. */
export type DuplicateType = 'none' | 'same_step' | 'cross_step';

export interface ToolCallTelemetry {
  event: 'tool_call';
  tool_name: string;
  tool_call_id: string;
  outcome: ToolCallOutcome;
  duration_ms: number;
  duplicate_type: DuplicateType;
  /** First 8 hex digits of the SHA-256 of the canonical arguments. */
  args_hash: string;
  repeat_tier: RepeatTier | null;
  repeat_count: number;
}

export interface ToolCallRepeatTelemetry {
  event: 'tool_call_repeat';
  tool_name: string;
  tool_call_id: string;
  args_hash: string;
  repeat_tier: RepeatTier;
  repeat_count: number;
  repeat_period: number;
}

export type ToolTelemetryEvent = ToolCallTelemetry | ToolCallRepeatTelemetry;

/** Where tool telemetry goes. `record` must not block; a throwing sink is ignored. */
export interface ToolTelemetrySink {
  record(event: ToolTelemetryEvent): void;
}

/** The default: telemetry off. */
export const noTelemetry: ToolTelemetrySink = { record: () => {} };

export function recordSafely(sink: ToolTelemetrySink, event: ToolTelemetryEvent): void {
  try {
    sink.record(event);
  } catch {
    // Telemetry must never change what a tool call does.
  }
}
