import type { ContentPart, Message, ToolCall } from '../../message.js';
import type { Tool } from '../../tool.js';

/**
 * The Chat Completions request as this provider sends it. Declared here rather than taken from the
 * SDK because compatible servers accept more than OpenAI's own types allow (`reasoning_content`,
 * `video_url` parts, media in tool results).
 */
export interface ChatRequestMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content?: string | ChatRequestContentPart[] | null;
  name?: string;
  tool_calls?: ChatRequestToolCall[];
  tool_call_id?: string;
  [vendorField: string]: unknown;
}

export type ChatRequestContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string } }
  | { type: 'input_audio'; input_audio: { data: string; format: string } }
  | { type: 'audio_url'; audio_url: { url: string } }
  | { type: 'video_url'; video_url: { url: string } };

export interface ChatRequestToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface ChatRequestTool {
  type: string;
  function: { name: string; description?: string; parameters?: Record<string, unknown> };
}

/** How one server family wants the history written. */
export interface HistoryDialect {
  /** Field of assistant messages that carries the model's reasoning; `''` sends none. */
  reasoningKey: string;
  /** Send the reasoning field even when the reasoning is an empty string. */
  keepEmptyReasoning: boolean;
  /** Leave `content` out of an assistant message that has tool calls and no text. */
  omitEmptyContentWithToolCalls: boolean;
}

export function convertMessage(message: Message, dialect: HistoryDialect): ChatRequestMessage {
  const visible = message.content.filter((part) => part.type !== 'think');
  const out: ChatRequestMessage = { role: message.role };
  if (message.name !== undefined && message.role !== 'tool') out.name = message.name;

  if (message.role === 'assistant') {
    const content = convertContent(visible);
    const hasToolCalls = (message.tool_calls?.length ?? 0) > 0;
    if (!(hasToolCalls && dialect.omitEmptyContentWithToolCalls && isEmptyContent(content)))
      out.content = content;
    if (hasToolCalls) out.tool_calls = message.tool_calls?.map(convertToolCall);
    const thinks = message.content.filter((part) => part.type === 'think');
    if (dialect.reasoningKey && thinks.length > 0) {
      const reasoning = thinks.map((part) => part.think).join('');
      if (reasoning || dialect.keepEmptyReasoning) out[dialect.reasoningKey] = reasoning;
    }
    return out;
  }

  out.content = convertContent(visible);
  if (message.role === 'tool') out.tool_call_id = message.tool_call_id ?? '';
  return out;
}

/** Text-only content becomes one string (what every compatible server accepts); media needs parts. */
function convertContent(parts: readonly ContentPart[]): string | ChatRequestContentPart[] {
  if (parts.every((part) => part.type === 'text')) return parts.map((part) => part.text).join('');
  const out: ChatRequestContentPart[] = [];
  for (const part of parts) {
    const converted = convertPart(part);
    if (converted) out.push(converted);
  }
  return out;
}

function convertPart(part: ContentPart): ChatRequestContentPart | null {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'think':
      return null;
    case 'image_url':
      return { type: 'image_url', image_url: { url: part.image_url.url } };
    case 'audio_url': {
      // OpenAI takes audio only inline as `input_audio`; other servers take the URL as given.
      const inline = /^data:audio\/([\w.+-]+);base64,(.*)$/s.exec(part.audio_url.url);
      if (inline?.[1] && inline[2] !== undefined) {
        return { type: 'input_audio', input_audio: { data: inline[2], format: audioFormat(inline[1]) } };
      }
      return { type: 'audio_url', audio_url: { url: part.audio_url.url } };
    }
    case 'video_url':
      return { type: 'video_url', video_url: { url: part.video_url.url } };
  }
}

function audioFormat(subtype: string): string {
  if (subtype === 'mpeg' || subtype === 'mp3') return 'mp3';
  if (subtype === 'x-wav' || subtype === 'wave') return 'wav';
  return subtype;
}

function isEmptyContent(content: string | ChatRequestContentPart[]): boolean {
  return typeof content === 'string' ? content === '' : content.length === 0;
}

function convertToolCall(call: ToolCall): ChatRequestToolCall {
  return {
    id: call.id,
    type: 'function',
    function: { name: call.function.name, arguments: call.function.arguments ?? '' },
  };
}

export function convertTool(tool: Tool): ChatRequestTool {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  };
}
