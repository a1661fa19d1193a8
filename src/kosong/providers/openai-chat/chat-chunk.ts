import { z } from 'zod';

/**
 * The parts of a streamed Chat Completions chunk that we read. Compatible servers differ in what
 * they leave out or send as `null`, so everything is optional. Unknown fields are dropped, but in the
 * delta, where they pass through: the reasoning field's name is configurable, so it is read from the
 * loose delta. (Passing them through everywhere copied every field of every chunk — `object`,
 * `created`, `model`, … — a third of the chunk's parse.)
 *
 * Built on the first chunk, not at load: nothing parses a chunk before the first request has gone
 * out, and making these zod schemas (some seventy nodes) was part of the time to that request.
 */
function buildSchemas() {
  const toolCallDelta = z.object({
    index: z.number().int().nullish(),
    id: z.string().nullish(),
    type: z.string().nullish(),
    function: z
      .object({
        name: z.string().nullish(),
        arguments: z.string().nullish(),
      })
      .nullish(),
  });

  const usage = z.object({
    prompt_tokens: z.number().nullish(),
    completion_tokens: z.number().nullish(),
    prompt_tokens_details: z.object({ cached_tokens: z.number().nullish() }).nullish(),
    /** Kimi reports cache hits here rather than in `prompt_tokens_details`. */
    cached_tokens: z.number().nullish(),
  });

  const choice = z.object({
    index: z.number().nullish(),
    delta: z
      .looseObject({
        content: z.string().nullish(),
        tool_calls: z.array(toolCallDelta).nullish(),
      })
      .nullish(),
    finish_reason: z.string().nullish(),
    /** Kimi puts the usage of a stream into its last choice. */
    usage: usage.nullish(),
  });

  const chunk = z.object({
    id: z.string().nullish(),
    choices: z.array(choice).nullish(),
    usage: usage.nullish(),
  });
  return { toolCallDelta, usage, choice, chunk };
}

type Schemas = ReturnType<typeof buildSchemas>;
let schemas: Schemas | undefined;

/** The schema of one streamed chunk (built on first use). */
export function chatChunkSchema(): Schemas['chunk'] {
  schemas ??= buildSchemas();
  return schemas.chunk;
}

export type ChatChunk = z.infer<Schemas['chunk']>;
export type ChatChoice = z.infer<Schemas['choice']>;
export type ToolCallDelta = z.infer<Schemas['toolCallDelta']>;
export type ChatUsage = z.infer<Schemas['usage']>;
