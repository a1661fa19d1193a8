/**
 * The message model of kosong.
 *
 * Data shapes here use the field names of Kimi CLI's context files and wire (`tool_calls`,
 * `tool_call_id`, `image_url`, `arguments_part`, ...), so a message serialises with
 * `JSON.stringify` and no translation layer; code-facing APIs elsewhere are camelCase.
 */

export type Role = 'system' | 'user' | 'assistant' | 'tool';

export interface TextPart {
  type: 'text';
  text: string;
}

/** Model reasoning. `encrypted` carries a provider signature; a signed part is sealed. */
export interface ThinkPart {
  type: 'think';
  think: string;
  encrypted?: string | null;
}

export interface MediaRef {
  url: string;
  id?: string | null;
}

export interface ImageURLPart {
  type: 'image_url';
  image_url: MediaRef;
}

export interface AudioURLPart {
  type: 'audio_url';
  audio_url: MediaRef;
}

export interface VideoURLPart {
  type: 'video_url';
  video_url: MediaRef;
}

export type ContentPart = TextPart | ThinkPart | ImageURLPart | AudioURLPart | VideoURLPart;

export interface ToolCall {
  type: 'function';
  id: string;
  function: { name: string; arguments: string | null };
  extras?: Record<string, unknown> | null;
}

/** A fragment of the arguments of the tool call streamed just before it. */
export interface ToolCallPart {
  type: 'tool_call_part';
  arguments_part: string | null;
}

/** Every fragment of an assistant message a stream carries. */
export type StreamedPart = ContentPart | ToolCall | ToolCallPart;

/**
 * The provider's word that the arguments of the tool call streamed just before are complete
 * (Anthropic `content_block_stop`, Responses `function_call_arguments.done` / `output_item.done`,
 * Chat Completions `finish_reason`). Not a part of the message: `generate` dispatches the call on
 * it, broken JSON or not, and passes it on to nobody.
 */
export interface ToolCallEnd {
  type: 'tool_call_end';
}

/** Everything a provider stream yields. */
export type ProviderPart = StreamedPart | ToolCallEnd;

export interface Message {
  role: Role;
  name?: string;
  content: ContentPart[];
  tool_calls?: ToolCall[];
  tool_call_id?: string;
  partial?: boolean;
}

export interface TokenUsage {
  input_other: number;
  output: number;
  input_cache_read: number;
  input_cache_creation: number;
}

export type ThinkingEffort = 'off' | 'low' | 'medium' | 'high' | 'xhigh' | 'max';

export const textPart = (text: string): TextPart => ({ type: 'text', text });

export function message(
  role: Role,
  content: string | ContentPart | ContentPart[],
  extra: Partial<Message> = {},
): Message {
  const parts =
    typeof content === 'string' ? [textPart(content)] : Array.isArray(content) ? content : [content];
  return { role, content: parts, ...extra };
}

/** Joins the text parts of a message (think and media parts are skipped). */
export function extractText(msg: Pick<Message, 'content'>, separator = ''): string {
  let out = '';
  let first = true;
  for (const part of msg.content) {
    if (part.type !== 'text') continue;
    out += first ? part.text : separator + part.text;
    first = false;
  }
  return out;
}

export function inputTokens(usage: TokenUsage): number {
  return usage.input_other + usage.input_cache_read + usage.input_cache_creation;
}

export function totalTokens(usage: TokenUsage): number {
  return inputTokens(usage) + usage.output;
}

export function emptyUsage(): TokenUsage {
  return { input_other: 0, output: 0, input_cache_read: 0, input_cache_creation: 0 };
}

export function isContentPart(part: StreamedPart): part is ContentPart {
  return part.type !== 'function' && part.type !== 'tool_call_part';
}
