import { z } from 'zod';

/**
 * The Responses stream events this provider reads, validated with only the fields it uses (the SDK
 * types them but does not check them, and proxies that imitate the API vary). Events of any other
 * type are ignored.
 */

const usageSchema = z.object({
  input_tokens: z.number(),
  output_tokens: z.number(),
  input_tokens_details: z
    .object({ cached_tokens: z.number().nullish(), cache_write_tokens: z.number().nullish() })
    .nullish(),
});

const responseSchema = z.object({
  id: z.string().nullish(),
  usage: usageSchema.nullish(),
  error: z.object({ code: z.string().nullish(), message: z.string().nullish() }).nullish(),
});

const outputItemSchema = z.object({
  type: z.string(),
  id: z.string().nullish(),
  call_id: z.string().nullish(),
  name: z.string().nullish(),
  arguments: z.string().nullish(),
  encrypted_content: z.string().nullish(),
  summary: z.array(z.object({ text: z.string() })).nullish(),
});

export const responsesEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('response.created'), response: responseSchema }),
  z.object({ type: z.literal('response.completed'), response: responseSchema }),
  z.object({ type: z.literal('response.incomplete'), response: responseSchema }),
  z.object({ type: z.literal('response.failed'), response: responseSchema }),
  z.object({
    type: z.literal('response.output_item.added'),
    output_index: z.number().nullish(),
    item: outputItemSchema,
  }),
  z.object({
    type: z.literal('response.output_item.done'),
    output_index: z.number().nullish(),
    item: outputItemSchema,
  }),
  z.object({
    type: z.literal('response.function_call_arguments.delta'),
    item_id: z.string().nullish(),
    output_index: z.number().nullish(),
    delta: z.string(),
  }),
  z.object({
    type: z.literal('response.function_call_arguments.done'),
    item_id: z.string().nullish(),
    output_index: z.number().nullish(),
    arguments: z.string(),
  }),
  z.object({ type: z.literal('response.output_text.delta'), delta: z.string() }),
  z.object({ type: z.literal('response.refusal.delta'), delta: z.string() }),
  z.object({
    type: z.literal('response.reasoning_summary_text.delta'),
    item_id: z.string().nullish(),
    summary_index: z.number().nullish(),
    delta: z.string(),
  }),
  z.object({
    type: z.literal('error'),
    code: z.string().nullish(),
    message: z.string().nullish(),
  }),
]);

export type ResponsesEvent = z.infer<typeof responsesEventSchema>;
export type ResponsesUsage = z.infer<typeof usageSchema>;
export type ResponsesOutputItem = z.infer<typeof outputItemSchema>;

const handledTypes = new Set<string>(responsesEventSchema.options.map((option) => option.shape.type.value));

/** True for the event types this provider acts on. */
export function isHandledEventType(type: unknown): type is ResponsesEvent['type'] {
  return typeof type === 'string' && handledTypes.has(type);
}
