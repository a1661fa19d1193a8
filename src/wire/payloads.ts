import { z } from 'zod';
import type { ContentPart, ToolCall, ToolCallPart } from '../kosong/message.js';
import {
  contentPartFromJSON,
  contentPartSchema,
  toolCallFromJSON,
  toolCallSchema,
} from '../kosong/message-json.js';
import type { ToolResult } from '../kosong/tool.js';
import { builtOnFirstUse } from '../util/built-on-first-use.js';
import { displayBlockSchema } from './display.js';
import { withQuietExtensions } from './encode.js';
import { jsonValueSchema } from './json.js';

/**
 * The payload of every wire event, declared once: a zod schema whose output is the in-memory shape
 * (its type is derived below and in events.ts) and whose input is the JSON shape (the encoder in
 * encode.ts writes it). Defaults are those of Kimi CLI, so an older file that lacks a field reads as it
 * would there; unknown fields are dropped. Content parts, tool calls and tool results are kosong's own
 * objects, checked against kosong's types.
 *
 * Each payload's schema is built on first use (`eventPayloadSchemas` reads them through getters): a
 * start encodes a handful of event types before its first model request, and building all of them
 * at load was part of every start's path to that request.
 */

// Built on first use, as every schema of this module (see above).
const int = builtOnFirstUse(() => z.number().int());
const empty = builtOnFirstUse(() => z.object({}));
/** An optional field the in-memory shape always has, as null when absent. */
const orNull = <T extends z.ZodType>(schema: T) => schema.nullish().transform((value) => value ?? null);

const contentPart = builtOnFirstUse(
  (): z.ZodType<ContentPart> => contentPartSchema().transform(contentPartFromJSON),
);
/**
 * A prompt: text, or content parts. The parts' schema is reached through z.lazy (which parses and
 * encodes as the schema it wraps), so recording a text prompt's TurnBegin does not build it.
 */
export const userInputSchema = builtOnFirstUse(() => z.union([z.string(), z.array(z.lazy(contentPart))]));
export type UserInput = z.output<ReturnType<typeof userInputSchema>>;

const toolCall = builtOnFirstUse((): z.ZodType<ToolCall> => toolCallSchema().transform(toolCallFromJSON));

const toolCallPart = builtOnFirstUse(
  (): z.ZodType<ToolCallPart> =>
    z
      .object({ arguments_part: z.string().nullish() })
      .transform(
        (raw): ToolCallPart => ({ type: 'tool_call_part', arguments_part: raw.arguments_part ?? null }),
      ),
);

export const toolReturnValueSchema = builtOnFirstUse(() =>
  z.object({
    is_error: z.boolean(),
    output: z.union([z.string(), z.array(contentPart())]),
    message: z.string(),
    display: z.array(displayBlockSchema),
    extras: z.record(z.string(), jsonValueSchema).nullish(),
  }),
);

const toolResult = builtOnFirstUse(
  (): z.ZodType<ToolResult> =>
    z
      .object({ tool_call_id: z.string(), return_value: toolReturnValueSchema() })
      .transform(({ tool_call_id, return_value }): ToolResult => {
        const value: ToolResult['return_value'] = {
          is_error: return_value.is_error,
          output: return_value.output,
          message: return_value.message,
          display: return_value.display,
        };
        if (return_value.extras != null) value.extras = return_value.extras;
        return { tool_call_id, return_value: value };
      }),
);

const turnBegin = builtOnFirstUse(() => z.object({ user_input: userInputSchema() }));
/** Input the user added to the running turn; sent after it was appended to the context. */
const steerInput = builtOnFirstUse(() => z.object({ user_input: userInputSchema() }));
const stepBegin = builtOnFirstUse(() => z.object({ n: int() }));

/** A failed step attempt is about to be retried. */
const stepRetry = builtOnFirstUse(() =>
  z.object({
    n: int(),
    /** 1-based. */
    next_attempt: int(),
    max_attempts: int(),
    wait_s: z.number(),
    /** The class name of the error that caused the retry. */
    error_type: z.string(),
    status_code: int().nullish(),
  }),
);

export const hookActionSchema = builtOnFirstUse(() => z.enum(['allow', 'block']));
export type HookAction = z.output<ReturnType<typeof hookActionSchema>>;

const hookTriggered = builtOnFirstUse(() =>
  z.object({
    event: z.string(),
    /** The tool name, agent name, ... the hooks matched against. */
    target: z.string().default(''),
    hook_count: int().default(1),
  }),
);

const hookResolved = builtOnFirstUse(() =>
  z.object({
    event: z.string(),
    target: z.string().default(''),
    action: hookActionSchema().default('allow'),
    reason: z.string().default(''),
    duration_ms: int().default(0),
  }),
);

const tokenUsage = builtOnFirstUse(() =>
  z.object({
    input_other: int(),
    output: int(),
    input_cache_read: int().default(0),
    input_cache_creation: int().default(0),
  }),
);

const mcpServerStatusSchema = builtOnFirstUse(() =>
  z.enum(['pending', 'connecting', 'connected', 'failed', 'unauthorized']),
);
export type MCPServerStatus = z.output<ReturnType<typeof mcpServerStatusSchema>>;

const mcpStatusSnapshot = builtOnFirstUse(() =>
  z.object({
    loading: z.boolean(),
    connected: int(),
    total: int(),
    tools: int(),
    servers: z
      .array(
        z.object({
          name: z.string(),
          status: mcpServerStatusSchema(),
          tools: z.array(z.string()).default([]),
        }),
      )
      .default([]),
  }),
);
export type MCPStatusSnapshot = z.output<ReturnType<typeof mcpStatusSnapshot>>;

/** A status change; an absent (or null) field means "unchanged". */
const statusUpdate = builtOnFirstUse(() =>
  z.object({
    /** Share of the context window in use, 0..1. */
    context_usage: z.number().nullish(),
    context_tokens: int().nullish(),
    max_context_tokens: int().nullish(),
    token_usage: tokenUsage().nullish(),
    message_id: z.string().nullish(),
    plan_mode: z.boolean().nullish(),
    mcp_status: mcpStatusSnapshot().nullish(),
  }),
);

export const notificationSchema = builtOnFirstUse(() =>
  z.object({
    id: z.string(),
    category: z.string(),
    /** The notification kind, e.g. `task.completed`. */
    type: z.string(),
    source_kind: z.string(),
    source_id: z.string(),
    title: z.string(),
    body: z.string(),
    severity: z.string(),
    /** Unix time in seconds. */
    created_at: z.number(),
    payload: z.record(z.string(), jsonValueSchema).default({}),
  }),
);

export const approvalKindSchema = builtOnFirstUse(() => z.enum(['approve', 'approve_for_session', 'reject']));
export type ApprovalKind = z.output<ReturnType<typeof approvalKindSchema>>;

const approvalResponse = builtOnFirstUse(() =>
  z.object({
    request_id: z.string(),
    response: approvalKindSchema(),
    feedback: z.string().default(''),
  }),
);

/**
 * The nested event of a SubagentEvent, as the envelope parser reads it (parse.ts validates it as an
 * event); the encoder writes it as an envelope (registered in message-json.ts). A z.lazy, which parses
 * and encodes as the schema it wraps: the encoder is registered at load, the schema built on first use.
 */
export const nestedEventSchema = z.lazy(() => z.looseObject({ type: z.string(), payload: z.unknown() }));

/** An event of a subagent, forwarded to the parent's wire. Its `event` is typed in events.ts. */
export const subagentEventSchema = builtOnFirstUse(() =>
  z.preprocess(
    (raw) => {
      // Kimi CLI before the Agent tool called the parent a "task" tool.
      if (raw === null || typeof raw !== 'object' || !('task_tool_call_id' in raw)) return raw;
      const { task_tool_call_id, ...rest } = raw as Record<string, unknown>;
      return rest.parent_tool_call_id == null ? { ...rest, parent_tool_call_id: task_tool_call_id } : rest;
    },
    z.object({
      parent_tool_call_id: orNull(z.string()),
      agent_id: orNull(z.string()),
      subagent_type: orNull(z.string()),
      event: nestedEventSchema,
    }),
  ),
);

const planDisplay = builtOnFirstUse(() => z.object({ content: z.string(), file_path: z.string() }));
/**
 * kimi-ts extension: output of a tool call while it runs (a command's latest lines), for front ends
 * to show live. Not part of the conversation (the model reads the ToolResult) and not recorded.
 */
const toolOutput = builtOnFirstUse(() => z.object({ tool_call_id: z.string(), text: z.string() }));
/** A side question (`/btw`) started. */
const btwBegin = builtOnFirstUse(() => z.object({ id: z.string(), question: z.string() }));
const btwEnd = builtOnFirstUse(() =>
  z.object({ id: z.string(), response: z.string().nullish(), error: z.string().nullish() }),
);

/** A file a rewind did not touch, and why (changed by someone else, too large when recorded, …). */
const rewindFileNote = builtOnFirstUse(() => z.object({ path: z.string(), reason: z.string() }));
/**
 * `/rewind` finished (kimi-ts): what went back to before turn `turn`. Paths are relative to the work
 * dir (add-dirs as absolute paths). `redo` is true for `/rewind --redo`.
 */
const rewindDone = builtOnFirstUse(() =>
  z.object({
    turn: int(),
    redo: z.boolean().default(false),
    code_rewound: z.boolean(),
    conversation_rewound: z.boolean(),
    restored: z.array(z.string()).default([]),
    removed: z.array(z.string()).default([]),
    kept: z.array(rewindFileNote()).default([]),
    skipped: z.array(rewindFileNote()).default([]),
  }),
);

/**
 * kimi-ts extension: the session's goal changed (created, a turn counted, paused, blocked, completed,
 * cleared). `goal` is null once it is cleared or completed (a completion is sent first with status
 * `complete`). Budgets are null when unset.
 */
const goalUpdated = builtOnFirstUse(() =>
  z.object({
    goal: z
      .object({
        id: z.string(),
        objective: z.string(),
        status: z.enum(['active', 'paused', 'blocked', 'complete']),
        check: orNull(z.string()),
        reason: orNull(z.string()),
        turns_used: int(),
        tokens_used: int(),
        elapsed_ms: int(),
        max_turns: orNull(int()),
        max_tokens: orNull(int()),
        max_time_ms: orNull(int()),
      })
      .nullable(),
  }),
);

/**
 * kimi-ts extension: the turn that follows (its TurnBegin carries the prompt as `user_input`) was
 * started by a scheduled prompt (CronCreate, `/loop`), not typed. `cron` is null for a one-shot given
 * as a delay; `coalesced_count` > 1 when missed fires were delivered as one; `stale` on a recurring
 * job's last fire (7 days old).
 */
const scheduleFired = builtOnFirstUse(() =>
  withQuietExtensions(
    z.object({
      job_id: z.string(),
      cron: orNull(z.string()),
      recurring: z.boolean(),
      coalesced_count: int().default(1),
      stale: z.boolean().default(false),
    }),
    {
      /**
       * Who made the schedule: the model (CronCreate) or the person (`/loop`). A model's schedule runs
       * later, unasked, with the approvals in force then: front ends say so. Written only when set.
       */
      created_by: z.enum(['model', 'user']).nullish(),
    },
  ),
);

/**
 * Every event type with the schema of its payload, in the order of Kimi CLI's wire messages. Each is a
 * getter that builds the schema on its first read: `Object.keys` lists the types without building any.
 */
export const eventPayloadSchemas = {
  get TurnBegin() {
    return turnBegin();
  },
  get SteerInput() {
    return steerInput();
  },
  get TurnEnd() {
    return empty();
  },
  get StepBegin() {
    return stepBegin();
  },
  get StepInterrupted() {
    return empty();
  },
  get StepRetry() {
    return stepRetry();
  },
  get HookTriggered() {
    return hookTriggered();
  },
  get HookResolved() {
    return hookResolved();
  },
  get CompactionBegin() {
    return empty();
  },
  get CompactionEnd() {
    return empty();
  },
  get MCPLoadingBegin() {
    return empty();
  },
  get MCPLoadingEnd() {
    return empty();
  },
  get StatusUpdate() {
    return statusUpdate();
  },
  get Notification() {
    return notificationSchema();
  },
  get ContentPart() {
    return contentPart();
  },
  get ToolCall() {
    return toolCall();
  },
  get ToolCallPart() {
    return toolCallPart();
  },
  get ToolResult() {
    return toolResult();
  },
  get ApprovalResponse() {
    return approvalResponse();
  },
  get SubagentEvent() {
    return subagentEventSchema();
  },
  get PlanDisplay() {
    return planDisplay();
  },
  get ToolOutput() {
    return toolOutput();
  },
  get BtwBegin() {
    return btwBegin();
  },
  get BtwEnd() {
    return btwEnd();
  },
  get RewindDone() {
    return rewindDone();
  },
  get GoalUpdated() {
    return goalUpdated();
  },
  get ScheduleFired() {
    return scheduleFired();
  },
};
