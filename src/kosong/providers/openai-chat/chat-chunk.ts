import { z } from 'zod';

/**
 * The parts of a streamed Chat Completions chunk that we read. Compatible servers differ in what
 * they leave out or send as `null`, so everything is optional and unknown fields pass through (the
 * reasoning field's name is configurable, so it is read from the loose delta).
 */
const toolCallDeltaSchema = z.looseObject({
  index: z.number().int().nullish(),
  id: z.string().nullish(),
  type: z.string().nullish(),
  function: z
    .looseObject({
      name: z.string().nullish(),
      arguments: z.string().nullish(),
    })
    .nullish(),
});

export const usageSchema = z.looseObject({
  prompt_tokens: z.number().nullish(),
  completion_tokens: z.number().nullish(),
  prompt_tokens_details: z.looseObject({ cached_tokens: z.number().nullish() }).nullish(),
  /** Kimi reports cache hits here rather than in `prompt_tokens_details`. */
  cached_tokens: z.number().nullish(),
});

const choiceSchema = z.looseObject({
  index: z.number().nullish(),
  delta: z
    .looseObject({
      content: z.string().nullish(),
      tool_calls: z.array(toolCallDeltaSchema).nullish(),
    })
    .nullish(),
  finish_reason: z.string().nullish(),
  /** Kimi puts the usage of a stream into its last choice. */
  usage: usageSchema.nullish(),
});

export const chatChunkSchema = z.looseObject({
  id: z.string().nullish(),
  choices: z.array(choiceSchema).nullish(),
  usage: usageSchema.nullish(),
});

export type ChatChunk = z.infer<typeof chatChunkSchema>;
export type ChatChoice = z.infer<typeof choiceSchema>;
export type ToolCallDelta = z.infer<typeof toolCallDeltaSchema>;
export type ChatUsage = z.infer<typeof usageSchema>;
