import type {
  ContentBlockParam,
  ImageBlockParam,
  MessageParam,
  TextBlockParam,
  ToolResultBlockParam,
  ToolUseBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import { parseDataUrl } from '../../data-url.js';
import type { ContentPart, Message, ToolCall } from '../../message.js';
import { redactedThinkingData } from './redacted-thinking.js';

type MediaBlock = TextBlockParam | ImageBlockParam;

const IMAGE_MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
type ImageMediaType = (typeof IMAGE_MEDIA_TYPES)[number];

/**
 * Converts kosong history into Anthropic messages.
 *
 * The Messages API has no `tool` role: tool results are `tool_result` blocks inside a user message,
 * and all results answering one assistant turn must sit in the user message right after it, before
 * any other content. So every run of tool / user / system messages becomes one user message with
 * its `tool_result` blocks first.
 */
export function toAnthropicMessages(history: readonly Message[]): MessageParam[] {
  const out: MessageParam[] = [];
  for (const msg of history) {
    switch (msg.role) {
      case 'assistant': {
        const content = assistantBlocks(msg);
        if (content.length > 0) out.push({ role: 'assistant', content });
        break;
      }
      case 'tool':
        appendUserBlocks(out, [toolResultBlock(msg)]);
        break;
      case 'user':
        appendUserBlocks(out, mediaBlocks(msg.content));
        break;
      case 'system':
        // Only the request's own system prompt has a slot; later system notes travel as tagged user text.
        appendUserBlocks(out, systemNoteBlocks(msg.content));
        break;
    }
  }
  return out;
}

function appendUserBlocks(out: MessageParam[], blocks: ContentBlockParam[]): void {
  if (blocks.length === 0) return;
  const last = out.at(-1);
  if (last?.role !== 'user' || typeof last.content === 'string') {
    out.push({ role: 'user', content: blocks });
    return;
  }
  const content = last.content;
  for (const block of blocks) {
    const firstOther = content.findIndex((existing) => existing.type !== 'tool_result');
    if (block.type === 'tool_result' && firstOther !== -1) content.splice(firstOther, 0, block);
    else content.push(block);
  }
}

function assistantBlocks(msg: Message): ContentBlockParam[] {
  const blocks: ContentBlockParam[] = [];
  for (const part of msg.content) {
    if (part.type === 'text') {
      if (part.text !== '') blocks.push({ type: 'text', text: part.text });
    } else if (part.type === 'think') {
      // The API rejects thinking blocks it cannot verify, so only signed (or redacted) ones go back.
      const redacted = redactedThinkingData(part.encrypted);
      if (redacted !== null) blocks.push({ type: 'redacted_thinking', data: redacted });
      else if (part.encrypted)
        blocks.push({ type: 'thinking', thinking: part.think, signature: part.encrypted });
    }
    // Media in an assistant turn has no Anthropic form; it is left out.
  }
  for (const call of msg.tool_calls ?? []) blocks.push(toolUseBlock(call));
  return blocks;
}

function toolUseBlock(call: ToolCall): ToolUseBlockParam {
  return {
    type: 'tool_use',
    id: call.id,
    name: call.function.name,
    input: parseToolInput(call.function.arguments),
  };
}

/** `tool_use.input` must be an object; arguments that are not a JSON object become `{}`. */
export function parseToolInput(args: string | null): Record<string, unknown> {
  if (!args) return {};
  try {
    const value: unknown = JSON.parse(args);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

function toolResultBlock(msg: Message): ToolResultBlockParam {
  const content = mediaBlocks(msg.content);
  const block: ToolResultBlockParam = { type: 'tool_result', tool_use_id: msg.tool_call_id ?? '' };
  if (content.length > 0) block.content = content;
  return block;
}

/** Text and image blocks for user-side content; think parts are dropped and empty text skipped. */
function mediaBlocks(parts: readonly ContentPart[]): MediaBlock[] {
  const blocks: MediaBlock[] = [];
  for (const part of parts) {
    switch (part.type) {
      case 'text':
        if (part.text !== '') blocks.push({ type: 'text', text: part.text });
        break;
      case 'image_url':
        blocks.push(imageBlock(part.image_url.url));
        break;
      case 'audio_url':
        blocks.push({ type: 'text', text: '[audio omitted: the Anthropic API does not accept audio input]' });
        break;
      case 'video_url':
        blocks.push({ type: 'text', text: '[video omitted: the Anthropic API does not accept video input]' });
        break;
      case 'think':
        break;
    }
  }
  return blocks;
}

function imageBlock(url: string): MediaBlock {
  const inline = parseDataUrl(url);
  if (!inline) return { type: 'image', source: { type: 'url', url } };
  const mediaType = inline.mimeType;
  if (!isImageMediaType(mediaType)) {
    return { type: 'text', text: `[image omitted: the Anthropic API does not accept ${mediaType} images]` };
  }
  return { type: 'image', source: { type: 'base64', media_type: mediaType, data: inline.data } };
}

function isImageMediaType(value: string): value is ImageMediaType {
  return (IMAGE_MEDIA_TYPES as readonly string[]).includes(value);
}

function systemNoteBlocks(parts: readonly ContentPart[]): TextBlockParam[] {
  const text = parts
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .join('\n');
  return text === '' ? [] : [{ type: 'text', text: `<system>${text}</system>` }];
}
