import { z } from 'zod';
import type { ContentPart, ToolCall, ToolCallPart } from '../kosong/message.js';
import {
  contentPartFromJSON,
  contentPartSchema,
  toolCallFromJSON,
  toolCallSchema,
} from '../kosong/message-json.js';
import type { ToolResult } from '../kosong/tool.js';
import { displayBlockSchema } from './display.js';
import type { EventPayloads, WireEventType } from './events.js';
import { jsonValueSchema } from './json.js';
import type {
  ApprovalRequestData,
  HookRequestData,
  HookResponse,
  QuestionRequestData,
  QuestionResponse,
  ToolCallRequestData,
} from './requests.js';

/**
 * Zod schemas of every payload, producing the in-memory shapes. Defaults are those of Kimi CLI, so an
 * older file that lacks a field reads as it would there; unknown fields are dropped.
 * `SubagentEvent.event` is validated by the envelope parser (it is itself an envelope).
 */

const empty = z.object({});
const int = z.number().int();

const contentPart: z.ZodType<ContentPart> = contentPartSchema.transform(contentPartFromJSON);
const userInput = z.union([z.string(), z.array(contentPart)]);

const toolCall: z.ZodType<ToolCall> = toolCallSchema.transform(toolCallFromJSON);

const toolCallPart: z.ZodType<ToolCallPart> = z
  .object({ arguments_part: z.string().nullish() })
  .transform((raw): ToolCallPart => ({ type: 'tool_call_part', arguments_part: raw.arguments_part ?? null }));

export const toolReturnValueSchema = z.object({
  is_error: z.boolean(),
  output: z.union([z.string(), z.array(contentPart)]),
  message: z.string(),
  display: z.array(displayBlockSchema),
  extras: z.record(z.string(), jsonValueSchema).nullish(),
});

const toolResult: z.ZodType<ToolResult> = z
  .object({ tool_call_id: z.string(), return_value: toolReturnValueSchema })
  .transform(({ tool_call_id, return_value }): ToolResult => {
    const value: ToolResult['return_value'] = {
      is_error: return_value.is_error,
      output: return_value.output,
      message: return_value.message,
      display: return_value.display,
    };
    if (return_value.extras != null) value.extras = return_value.extras;
    return { tool_call_id, return_value: value };
  });

const tokenUsage = z.object({
  input_other: int,
  output: int,
  input_cache_read: int.default(0),
  input_cache_creation: int.default(0),
});

const mcpStatus = z.object({
  loading: z.boolean(),
  connected: int,
  total: int,
  tools: int,
  servers: z
    .array(
      z.object({
        name: z.string(),
        status: z.enum(['pending', 'connecting', 'connected', 'failed', 'unauthorized']),
        tools: z.array(z.string()).default([]),
      }),
    )
    .default([]),
});

const hookAction = z.enum(['allow', 'block']);
const approvalKind = z.enum(['approve', 'approve_for_session', 'reject']);

type EventSchemas = { [K in Exclude<WireEventType, 'SubagentEvent'>]: z.ZodType<EventPayloads[K]> };

export const eventPayloadSchemas: EventSchemas = {
  TurnBegin: z.object({ user_input: userInput }),
  SteerInput: z.object({ user_input: userInput }),
  TurnEnd: empty,
  StepBegin: z.object({ n: int }),
  StepInterrupted: empty,
  StepRetry: z.object({
    n: int,
    next_attempt: int,
    max_attempts: int,
    wait_s: z.number(),
    error_type: z.string(),
    status_code: int.nullish(),
  }),
  HookTriggered: z.object({ event: z.string(), target: z.string().default(''), hook_count: int.default(1) }),
  HookResolved: z.object({
    event: z.string(),
    target: z.string().default(''),
    action: hookAction.default('allow'),
    reason: z.string().default(''),
    duration_ms: int.default(0),
  }),
  CompactionBegin: empty,
  CompactionEnd: empty,
  MCPLoadingBegin: empty,
  MCPLoadingEnd: empty,
  StatusUpdate: z.object({
    context_usage: z.number().nullish(),
    context_tokens: int.nullish(),
    max_context_tokens: int.nullish(),
    token_usage: tokenUsage.nullish(),
    message_id: z.string().nullish(),
    plan_mode: z.boolean().nullish(),
    mcp_status: mcpStatus.nullish(),
  }),
  Notification: z.object({
    id: z.string(),
    category: z.string(),
    type: z.string(),
    source_kind: z.string(),
    source_id: z.string(),
    title: z.string(),
    body: z.string(),
    severity: z.string(),
    created_at: z.number(),
    payload: z.record(z.string(), jsonValueSchema).default({}),
  }),
  ContentPart: contentPart,
  ToolCall: toolCall,
  ToolCallPart: toolCallPart,
  ToolResult: toolResult,
  ApprovalResponse: z.object({
    request_id: z.string(),
    response: approvalKind,
    feedback: z.string().default(''),
  }),
  PlanDisplay: z.object({ content: z.string(), file_path: z.string() }),
  BtwBegin: z.object({ id: z.string(), question: z.string() }),
  BtwEnd: z.object({ id: z.string(), response: z.string().nullish(), error: z.string().nullish() }),
};

/** SubagentEvent without its `event` (which the envelope parser validates). */
export const subagentEventFieldsSchema = z
  .looseObject({
    parent_tool_call_id: z.string().nullish(),
    // Kimi CLI before the Agent tool called the parent a "task" tool.
    task_tool_call_id: z.string().nullish(),
    agent_id: z.string().nullish(),
    subagent_type: z.string().nullish(),
    event: z.looseObject({ type: z.string(), payload: z.unknown() }),
  })
  .transform((raw) => ({
    parent_tool_call_id: raw.parent_tool_call_id ?? raw.task_tool_call_id ?? null,
    agent_id: raw.agent_id ?? null,
    subagent_type: raw.subagent_type ?? null,
    event: raw.event,
  }));

export const approvalRequestSchema: z.ZodType<ApprovalRequestData> = z.object({
  id: z.string(),
  tool_call_id: z.string(),
  sender: z.string(),
  action: z.string(),
  description: z.string(),
  display: z.array(displayBlockSchema).default([]),
  source_kind: z.enum(['foreground_turn', 'background_agent']).nullish(),
  source_id: z.string().nullish(),
  agent_id: z.string().nullish(),
  subagent_type: z.string().nullish(),
  source_description: z.string().nullish(),
});

export const toolCallRequestSchema: z.ZodType<ToolCallRequestData> = z.object({
  id: z.string(),
  name: z.string(),
  arguments: z.string().nullable(),
});

const questionItem = z.object({
  question: z.string(),
  header: z.string().default(''),
  options: z.array(z.object({ label: z.string(), description: z.string().default('') })),
  multi_select: z.boolean().default(false),
  body: z.string().default(''),
  other_label: z.string().default(''),
  other_description: z.string().default(''),
});

export const questionRequestSchema: z.ZodType<QuestionRequestData> = z.object({
  id: z.string(),
  tool_call_id: z.string(),
  questions: z.array(questionItem),
});

export const hookRequestSchema: z.ZodType<HookRequestData> = z.object({
  id: z.string(),
  subscription_id: z.string().default(''),
  event: z.string(),
  target: z.string().default(''),
  input_data: z.record(z.string(), jsonValueSchema).default({}),
});

export const questionResponseSchema: z.ZodType<QuestionResponse> = z.object({
  request_id: z.string(),
  answers: z.record(z.string(), z.string()),
});

export const hookResponseSchema: z.ZodType<HookResponse> = z.object({
  request_id: z.string(),
  action: hookAction.default('allow'),
  reason: z.string().default(''),
});
