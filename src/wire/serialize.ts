import type { ContentPart, TokenUsage, ToolCall } from '../kosong/message.js';
import { contentPartToJSON } from '../kosong/message-json.js';
import type { ToolResult, ToolReturnValue } from '../kosong/tool.js';
import { displayBlockToJSON } from './display.js';
import type { EventPayloads, MCPStatusSnapshot, UserInput, WireEvent } from './events.js';
import type { WireMessage } from './message.js';
import type { WireRequest } from './requests.js';

/**
 * Serialisation to Kimi CLI's JSON: the `{type, payload}` envelope, where a payload has every field of
 * its type (absent optional fields as null, defaults filled), as pydantic writes them. wire.jsonl,
 * wire-mode clients and the web UI read this shape.
 */

export interface WireEnvelopeJSON {
  type: string;
  payload: Record<string, unknown>;
}

type JSONObject = Record<string, unknown>;

export function wireMessageToJSON(message: WireMessage): WireEnvelopeJSON {
  return { type: message.type, payload: payloadToJSON(message) };
}

function payloadToJSON(message: WireMessage): JSONObject {
  switch (message.type) {
    case 'ApprovalRequest':
    case 'ToolCallRequest':
    case 'QuestionRequest':
    case 'HookRequest':
      return requestToJSON(message);
    default:
      return eventPayloadToJSON(message);
  }
}

function eventPayloadToJSON(event: WireEvent): JSONObject {
  switch (event.type) {
    case 'TurnBegin':
    case 'SteerInput':
      return { user_input: userInputToJSON(event.payload.user_input) };
    case 'TurnEnd':
    case 'StepInterrupted':
    case 'CompactionBegin':
    case 'CompactionEnd':
    case 'MCPLoadingBegin':
    case 'MCPLoadingEnd':
      return {};
    case 'StepBegin':
      return { n: event.payload.n };
    case 'StepRetry': {
      const p = event.payload;
      return {
        n: p.n,
        next_attempt: p.next_attempt,
        max_attempts: p.max_attempts,
        wait_s: p.wait_s,
        error_type: p.error_type,
        status_code: p.status_code ?? null,
      };
    }
    case 'HookTriggered': {
      const p = event.payload;
      return { event: p.event, target: p.target, hook_count: p.hook_count };
    }
    case 'HookResolved': {
      const p = event.payload;
      return {
        event: p.event,
        target: p.target,
        action: p.action,
        reason: p.reason,
        duration_ms: p.duration_ms,
      };
    }
    case 'StatusUpdate':
      return statusUpdateToJSON(event.payload);
    case 'Notification': {
      const p = event.payload;
      return {
        id: p.id,
        category: p.category,
        type: p.type,
        source_kind: p.source_kind,
        source_id: p.source_id,
        title: p.title,
        body: p.body,
        severity: p.severity,
        created_at: p.created_at,
        payload: p.payload,
      };
    }
    case 'ContentPart':
      return contentPartToJSON(event.payload);
    case 'ToolCall':
      return toolCallToWireJSON(event.payload);
    case 'ToolCallPart':
      return { arguments_part: event.payload.arguments_part ?? null };
    case 'ToolResult':
      return toolResultToJSON(event.payload);
    case 'ApprovalResponse': {
      const p = event.payload;
      return { request_id: p.request_id, response: p.response, feedback: p.feedback };
    }
    case 'SubagentEvent': {
      const p = event.payload;
      return {
        parent_tool_call_id: p.parent_tool_call_id,
        agent_id: p.agent_id,
        subagent_type: p.subagent_type,
        event: wireMessageToJSON(p.event),
      };
    }
    case 'PlanDisplay':
      return { content: event.payload.content, file_path: event.payload.file_path };
    case 'BtwBegin':
      return { id: event.payload.id, question: event.payload.question };
    case 'BtwEnd':
      return {
        id: event.payload.id,
        response: event.payload.response ?? null,
        error: event.payload.error ?? null,
      };
  }
}

function requestToJSON(request: WireRequest): JSONObject {
  switch (request.type) {
    case 'ApprovalRequest': {
      const p = request.payload;
      return {
        id: p.id,
        tool_call_id: p.tool_call_id,
        sender: p.sender,
        action: p.action,
        description: p.description,
        source_kind: p.source_kind ?? null,
        source_id: p.source_id ?? null,
        agent_id: p.agent_id ?? null,
        subagent_type: p.subagent_type ?? null,
        source_description: p.source_description ?? null,
        display: p.display.map(displayBlockToJSON),
      };
    }
    case 'ToolCallRequest': {
      const p = request.payload;
      return { id: p.id, name: p.name, arguments: p.arguments };
    }
    case 'QuestionRequest': {
      const p = request.payload;
      return {
        id: p.id,
        tool_call_id: p.tool_call_id,
        questions: p.questions.map((q) => ({
          question: q.question,
          header: q.header,
          options: q.options.map((o) => ({ label: o.label, description: o.description })),
          multi_select: q.multi_select,
          body: q.body,
          other_label: q.other_label,
          other_description: q.other_description,
        })),
      };
    }
    case 'HookRequest': {
      const p = request.payload;
      return {
        id: p.id,
        subscription_id: p.subscription_id,
        event: p.event,
        target: p.target,
        input_data: p.input_data,
      };
    }
  }
}

function userInputToJSON(input: UserInput): string | JSONObject[] {
  return typeof input === 'string' ? input : input.map(contentPartToJSON);
}

/** Unlike context.jsonl, the wire keeps a tool call's null fields. */
function toolCallToWireJSON(call: ToolCall): JSONObject {
  return {
    type: 'function',
    id: call.id,
    function: { name: call.function.name, arguments: call.function.arguments ?? null },
    extras: call.extras ?? null,
  };
}

function toolResultToJSON(result: ToolResult): JSONObject {
  return { tool_call_id: result.tool_call_id, return_value: returnValueToJSON(result.return_value) };
}

export function returnValueToJSON(value: ToolReturnValue): JSONObject {
  return {
    is_error: value.is_error,
    output:
      typeof value.output === 'string'
        ? value.output
        : value.output.map((part: ContentPart) => contentPartToJSON(part)),
    message: value.message,
    display: value.display.map(displayBlockToJSON),
    extras: value.extras ?? null,
  };
}

function statusUpdateToJSON(p: EventPayloads['StatusUpdate']): JSONObject {
  return {
    context_usage: p.context_usage ?? null,
    context_tokens: p.context_tokens ?? null,
    max_context_tokens: p.max_context_tokens ?? null,
    token_usage: p.token_usage ? tokenUsageToJSON(p.token_usage) : null,
    message_id: p.message_id ?? null,
    plan_mode: p.plan_mode ?? null,
    mcp_status: p.mcp_status ? mcpStatusToJSON(p.mcp_status) : null,
  };
}

function tokenUsageToJSON(u: TokenUsage): JSONObject {
  return {
    input_other: u.input_other,
    output: u.output,
    input_cache_read: u.input_cache_read,
    input_cache_creation: u.input_cache_creation,
  };
}

function mcpStatusToJSON(s: MCPStatusSnapshot): JSONObject {
  return {
    loading: s.loading,
    connected: s.connected,
    total: s.total,
    tools: s.tools,
    servers: s.servers.map((server) => ({
      name: server.name,
      status: server.status,
      tools: [...server.tools],
    })),
  };
}
