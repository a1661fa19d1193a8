import { describe, expectTypeOf, test } from 'vitest';
import type { ContentPart, TokenUsage, ToolCall, ToolCallPart } from '../kosong/message.js';
import type { DisplayBlock, ToolResult } from '../kosong/tool.js';
import type {
  EventPayloads,
  MCPStatusSnapshot,
  Notification,
  StatusUpdate,
  SubagentEvent,
  WireEvent,
} from './events.js';
import type { JsonValue } from './json.js';
import type { ApprovalRequestData, HookRequestData, QuestionItem, ToolCallRequestData } from './requests.js';

/**
 * The payload types derived from the schemas are the in-memory shapes the code builds and reads:
 * the same as the interfaces written by hand before (commit dae791d), field for field.
 */
describe('payload types derived from the schemas', () => {
  test('events', () => {
    expectTypeOf<EventPayloads['StepRetry']>().toEqualTypeOf<{
      n: number;
      next_attempt: number;
      max_attempts: number;
      wait_s: number;
      error_type: string;
      status_code?: number | null | undefined;
    }>();
    expectTypeOf<EventPayloads['HookResolved']>().toEqualTypeOf<{
      event: string;
      target: string;
      action: 'allow' | 'block';
      reason: string;
      duration_ms: number;
    }>();
    expectTypeOf<StatusUpdate>().toEqualTypeOf<{
      context_usage?: number | null | undefined;
      context_tokens?: number | null | undefined;
      max_context_tokens?: number | null | undefined;
      token_usage?: TokenUsage | null | undefined;
      message_id?: string | null | undefined;
      plan_mode?: boolean | null | undefined;
      mcp_status?: MCPStatusSnapshot | null | undefined;
    }>();
    expectTypeOf<MCPStatusSnapshot['servers'][number]>().toEqualTypeOf<{
      name: string;
      status: 'pending' | 'connecting' | 'connected' | 'failed' | 'unauthorized';
      tools: string[];
    }>();
    expectTypeOf<Notification>().toEqualTypeOf<{
      id: string;
      category: string;
      type: string;
      source_kind: string;
      source_id: string;
      title: string;
      body: string;
      severity: string;
      created_at: number;
      payload: Record<string, JsonValue>;
    }>();
    expectTypeOf<SubagentEvent>().toEqualTypeOf<{
      parent_tool_call_id: string | null;
      agent_id: string | null;
      subagent_type: string | null;
      event: WireEvent;
    }>();
    expectTypeOf<EventPayloads['TurnBegin']>().toEqualTypeOf<{ user_input: string | ContentPart[] }>();
    expectTypeOf<EventPayloads['BtwEnd']>().toEqualTypeOf<{
      id: string;
      response?: string | null | undefined;
      error?: string | null | undefined;
    }>();
    expectTypeOf<EventPayloads['ContentPart']>().toEqualTypeOf<ContentPart>();
    expectTypeOf<EventPayloads['ToolCall']>().toEqualTypeOf<ToolCall>();
    expectTypeOf<EventPayloads['ToolCallPart']>().toEqualTypeOf<ToolCallPart>();
    expectTypeOf<EventPayloads['ToolResult']>().toEqualTypeOf<ToolResult>();
  });

  test('requests', () => {
    expectTypeOf<ApprovalRequestData>().toEqualTypeOf<{
      id: string;
      tool_call_id: string;
      sender: string;
      action: string;
      description: string;
      display: DisplayBlock[];
      source_kind?: 'foreground_turn' | 'background_agent' | null | undefined;
      source_id?: string | null | undefined;
      agent_id?: string | null | undefined;
      subagent_type?: string | null | undefined;
      source_description?: string | null | undefined;
      parent_tool_call_id?: string | null | undefined;
      swarm_id?: string | null | undefined;
    }>();
    expectTypeOf<ToolCallRequestData>().toEqualTypeOf<{
      id: string;
      name: string;
      arguments: string | null;
    }>();
    expectTypeOf<QuestionItem>().toEqualTypeOf<{
      question: string;
      header: string;
      options: { label: string; description: string }[];
      multi_select: boolean;
      body: string;
      other_label: string;
      other_description: string;
    }>();
    expectTypeOf<HookRequestData>().toEqualTypeOf<{
      id: string;
      subscription_id: string;
      event: string;
      target: string;
      input_data: Record<string, JsonValue>;
    }>();
  });
});
