import { z } from 'zod';
import type { DisplayBlock } from '../kosong/tool.js';
import { builtOnFirstUse } from '../util/built-on-first-use.js';
import { displayBlockSchema } from './display.js';
import { withQuietExtensions } from './encode.js';
import { jsonValueSchema } from './json.js';
import { approvalKindSchema, hookActionSchema } from './payloads.js';

/**
 * The payloads of the requests (messages that wait for an answer) and of the answers wire clients
 * send, declared once like the events' (payloads.ts): the types in requests.ts are their outputs.
 *
 * Each exported schema is a z.lazy over a schema built on its first use (the first request of its
 * kind, or the first answer read): a start sends none before its first model request, and building
 * them at load was part of every start's path to that request. z.lazy parses and encodes (encode.ts)
 * as the schema it wraps.
 */

/** Approvals carry the display blocks of tools, which may be of any kind. */
const anyDisplayBlock: z.ZodType<DisplayBlock> = displayBlockSchema;

const approvalSourceKindSchema = builtOnFirstUse(() => z.enum(['foreground_turn', 'background_agent']));

/** Kimi CLI's ApprovalRequest, field for field. */
const kimiCliApprovalRequest = builtOnFirstUse(() =>
  z.object({
    id: z.string(),
    tool_call_id: z.string(),
    /** The tool asking. */
    sender: z.string(),
    /** What is being approved; "approve for session" remembers this string. */
    action: z.string(),
    description: z.string(),
    source_kind: approvalSourceKindSchema().nullish(),
    source_id: z.string().nullish(),
    agent_id: z.string().nullish(),
    subagent_type: z.string().nullish(),
    source_description: z.string().nullish(),
    display: z.array(anyDisplayBlock).default([]),
  }),
);

export const approvalRequestSchema = z.lazy(
  builtOnFirstUse(() =>
    withQuietExtensions(kimiCliApprovalRequest(), {
      /**
       * kimi-ts extension: the parent's tool call (Agent, AgentSwarm) that started the asking agent;
       * agents of one swarm share it. Absent for the main agent: written only when set, so Kimi CLI's
       * programs and Moonshot's SDK see the request as Kimi CLI sends it.
       */
      parent_tool_call_id: z.string().nullish(),
      /**
       * kimi-ts extension: the swarm the asking agent runs in (the id kimi-ts made for the AgentSwarm
       * call, as in its branches `kimi-ts/<swarm id>/<n>`); written only when set. A request that has
       * it may be answered for the agents of this swarm alone (`for_swarm` in the answer).
       */
      swarm_id: z.string().nullish(),
    }),
  ),
);

export const toolCallRequestSchema = z.lazy(
  builtOnFirstUse(() =>
    z.object({
      /** The tool call's id. */
      id: z.string(),
      name: z.string(),
      /** The arguments as a JSON string. */
      arguments: z.string().nullable(),
    }),
  ),
);

const questionOptionSchema = builtOnFirstUse(() =>
  z.object({ label: z.string(), description: z.string().default('') }),
);

const questionItemSchema = builtOnFirstUse(() =>
  z.object({
    question: z.string(),
    /** A short tag shown with the question. */
    header: z.string().default(''),
    options: z.array(questionOptionSchema()),
    multi_select: z.boolean().default(false),
    /** Markdown shown above the options. */
    body: z.string().default(''),
    /** Label and description of the free-text "Other" choice; empty means the UI's default. */
    other_label: z.string().default(''),
    other_description: z.string().default(''),
  }),
);

const kimiCliQuestionRequest = builtOnFirstUse(() =>
  z.object({
    id: z.string(),
    tool_call_id: z.string(),
    questions: z.array(questionItemSchema()),
  }),
);

/**
 * kimi-ts extensions, written only when set (a question of the main agent is sent as Kimi CLI
 * sends it): which subagent asks, as an ApprovalRequest says it.
 */
export const questionRequestSchema = z.lazy(
  builtOnFirstUse(() =>
    withQuietExtensions(kimiCliQuestionRequest(), {
      agent_id: z.string().nullish(),
      subagent_type: z.string().nullish(),
      source_description: z.string().nullish(),
      parent_tool_call_id: z.string().nullish(),
    }),
  ),
);

export const hookRequestSchema = z.lazy(
  builtOnFirstUse(() =>
    z.object({
      id: z.string(),
      subscription_id: z.string().default(''),
      event: z.string(),
      target: z.string().default(''),
      /** The same payload a command hook reads on stdin. */
      input_data: z.record(z.string(), jsonValueSchema).default({}),
    }),
  ),
);

/** A wire client's answer to a QuestionRequest (not itself a wire message). */
export const questionResponseSchema = z.lazy(
  builtOnFirstUse(() =>
    z.object({
      request_id: z.string(),
      /** Question text → chosen label(s), comma-joined for multi-select. */
      answers: z.record(z.string(), z.string()),
    }),
  ),
);

/** A wire client's answer to a HookRequest (not itself a wire message). */
export const hookResponseSchema = z.lazy(
  builtOnFirstUse(() =>
    z.object({
      request_id: z.string(),
      action: hookActionSchema().default('allow'),
      reason: z.string().default(''),
    }),
  ),
);

/**
 * The answer to an ApprovalRequest, as a wire client (or the web page) sends it: Kimi CLI's fields
 * plus kimi-ts's extensions for `approve_for_session`. Declared once: the JSON a client writes
 * (`ApprovalAnswerJSON`) and the answer in memory (`ApprovalAnswer`) both derive from it.
 */
export const approvalAnswerSchema = z.lazy(
  builtOnFirstUse(() =>
    z.object({
      request_id: z.string().nullish(),
      response: approvalKindSchema(),
      feedback: z.string().nullish(),
      /**
       * kimi-ts extension, for `approve_for_session`: `exact` (default) remembers only the action and
       * command or path the user saw; `action` remembers the whole action (any command, any edit);
       * `prefix`, commands whose every part starts with `prefix`.
       */
      scope: z.enum(['exact', 'action', 'prefix']).nullish(),
      /** kimi-ts extension: also remember the approval for this project, across sessions. */
      persist: z.boolean().nullish(),
      /** kimi-ts extension, for scope `prefix`: commands whose every part starts with this. */
      prefix: z.string().min(1).nullish(),
      /** kimi-ts extension: also save the answer as an allow rule (`.kimi-ts/permissions.toml` or the user's). */
      save_rule: z.enum(['project', 'user']).nullish(),
      /**
       * kimi-ts extension, for `approve_for_session`: remember it only for the agents of the asking
       * agent's swarm (the request's `swarm_id`) until that swarm ends — not the main agent, not another
       * swarm; never persisted nor saved as a rule. Without a swarm it approves this request once.
       */
      for_swarm: z.boolean().nullish(),
    }),
  ),
);

export type ApprovalSourceKind = z.output<ReturnType<typeof approvalSourceKindSchema>>;
export type ApprovalRequestData = z.output<typeof approvalRequestSchema>;
export type ToolCallRequestData = z.output<typeof toolCallRequestSchema>;
export type QuestionOption = z.output<ReturnType<typeof questionOptionSchema>>;
export type QuestionItem = z.output<ReturnType<typeof questionItemSchema>>;
export type QuestionRequestData = z.output<typeof questionRequestSchema>;
export type HookRequestData = z.output<typeof hookRequestSchema>;
export type QuestionResponse = z.output<typeof questionResponseSchema>;
export type QuestionAnswers = QuestionResponse['answers'];
export type HookResponse = z.output<typeof hookResponseSchema>;
/** The answer to an ApprovalRequest as a client writes it (JSON). */
export type ApprovalAnswerJSON = z.input<typeof approvalAnswerSchema>;
type ParsedApprovalAnswer = z.output<typeof approvalAnswerSchema>;
type ApprovalExtension = 'scope' | 'persist' | 'prefix' | 'save_rule' | 'for_swarm';
/** The answer to an ApprovalRequest in memory, as the request resolves with it. */
export type ApprovalAnswer = Pick<ParsedApprovalAnswer, 'response'> & { feedback: string } & {
  [K in ApprovalExtension]?: NonNullable<ParsedApprovalAnswer[K]> | undefined;
};
