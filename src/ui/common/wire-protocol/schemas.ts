import { z } from 'zod';
import { HOOK_EVENTS, wireHookSubscriptionSchema } from '../../../hooks/index.js';
import type { ContentPart } from '../../../kosong/message.js';
import { contentPartFromJSON, contentPartSchema } from '../../../kosong/message-json.js';
import type { ToolReturnValue } from '../../../kosong/tool.js';
import { displayBlockSchema } from '../../../wire/display.js';
import { jsonValueSchema } from '../../../wire/json.js';

/** Zod schemas for what a wire client sends: method params and answers to our requests. */

const contentPart: z.ZodType<ContentPart> = contentPartSchema().transform(contentPartFromJSON);
const userInput = z.union([z.string(), z.array(contentPart)]);

export const promptParamsSchema = z.object({ user_input: userInput });
export const steerParamsSchema = promptParamsSchema;
export const setPlanModeParamsSchema = z.object({ enabled: z.boolean() });
/** `replay` and `cancel` take nothing: params may be left out, null, or an object. */
export const noParamsSchema = z.union([z.undefined(), z.null(), z.looseObject({})]);

const hookEventNames: readonly string[] = HOOK_EVENTS;

const clientHookSchema = z.looseObject({ id: z.string(), event: z.string() });

export const initializeParamsSchema = z.object({
  protocol_version: z.string(),
  client: z.object({ name: z.string(), version: z.string().nullish() }).nullish(),
  external_tools: z
    .array(
      z.object({
        name: z.string().min(1),
        description: z.string(),
        parameters: z.record(z.string(), z.unknown()),
      }),
    )
    .nullish(),
  // Subscriptions to events this server does not know are ignored (a newer client may know more);
  // the rest must be valid subscriptions.
  hooks: z
    .array(clientHookSchema)
    .transform((hooks) => hooks.filter((hook) => hookEventNames.includes(hook.event)))
    .pipe(z.array(wireHookSubscriptionSchema))
    .nullish(),
  capabilities: z
    .object({
      supports_question: z.boolean().nullish(),
      supports_plan_mode: z.boolean().nullish(),
      supports_tool_output: z.boolean().nullish(),
      // kimi-ts extension: the client can answer a WorkspaceTrustRequest.
      workspace_trust: z.boolean().nullish(),
    })
    .nullish(),
  // kimi-ts extension: the program trusts the work dir for this session (its allow rules hold).
  trust_workspace: z.boolean().nullish(),
});

export type InitializeParams = z.output<typeof initializeParamsSchema>;

const returnValueSchema: z.ZodType<ToolReturnValue> = z
  .object({
    is_error: z.boolean(),
    output: z.union([z.string(), z.array(contentPart)]),
    message: z.string().default(''),
    display: z.array(displayBlockSchema).default([]),
    extras: z.record(z.string(), jsonValueSchema).nullish(),
  })
  .transform((raw): ToolReturnValue => {
    const value: ToolReturnValue = {
      is_error: raw.is_error,
      output: raw.output,
      message: raw.message,
      display: raw.display,
    };
    if (raw.extras != null) value.extras = raw.extras;
    return value;
  });

/** A `ToolResult` (`{tool_call_id, return_value}`) or, leniently, a bare return value. */
export const toolAnswerSchema: z.ZodType<ToolReturnValue> = z.union([
  z
    .object({ tool_call_id: z.string().nullish(), return_value: returnValueSchema })
    .transform((r) => r.return_value),
  returnValueSchema,
]);

export const questionAnswerSchema = z.object({
  request_id: z.string().nullish(),
  answers: z.record(z.string(), z.string()),
});

export const hookAnswerSchema = z.object({
  request_id: z.string().nullish(),
  action: z.enum(['allow', 'block']),
  reason: z.string().nullish(),
});
