import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ContentPart } from '../kosong/message.js';

/** What one MCP tool result may put in front of the model: text and media share this many characters. */
export const MCP_OUTPUT_BUDGET = 100_000;

type Block = CallToolResult['content'][number];

/** A media block as it would travel: a data URL, plus what is needed to save it elsewhere. */
export interface MediaBlock {
  kind: 'image' | 'audio' | 'video';
  mimeType: string;
  base64: string;
}

/** One block of the result rendered for the model, before the budget is applied. */
export type RenderedBlock = { type: 'text'; text: string } | { type: 'media'; media: MediaBlock };

export interface ConvertedResult {
  /** What fits the budget, in order. */
  parts: ContentPart[];
  /** Some text was cut or left out, or some media dropped. */
  truncated: boolean;
  /** Every block, uncut: what the full-output file is made from. */
  blocks: RenderedBlock[];
  /** Index into `blocks` and offset into its text where the visible text stops, if a text block was cut or skipped. */
  firstCut: { block: number; offset: number } | null;
  /** Indexes into `blocks` of the media that did not fit. */
  droppedMedia: number[];
}

/**
 * Converts an MCP tool result to content parts under one character budget shared by text (its
 * length) and media (the data URL's length), as Kimi CLI does: text that does not fit is cut where
 * the budget ends, later text is left out, media that does not fit is dropped whole.
 */
export function convertToolResult(result: CallToolResult, budget = MCP_OUTPUT_BUDGET): ConvertedResult {
  const blocks = result.content.map(renderBlock);
  if (blocks.length === 0 && result.structuredContent !== undefined) {
    blocks.push({ type: 'text', text: JSON.stringify(result.structuredContent) });
  }
  const parts: ContentPart[] = [];
  const droppedMedia: number[] = [];
  let firstCut: ConvertedResult['firstCut'] = null;
  let remaining = budget;
  blocks.forEach((block, index) => {
    if (block.type === 'text') {
      if (block.text.length <= remaining) {
        parts.push({ type: 'text', text: block.text });
        remaining -= block.text.length;
        return;
      }
      firstCut ??= { block: index, offset: remaining };
      if (remaining > 0) parts.push({ type: 'text', text: block.text.slice(0, remaining) });
      remaining = 0;
      return;
    }
    const url = dataUrl(block.media);
    if (url.length > remaining) {
      droppedMedia.push(index);
      return;
    }
    remaining -= url.length;
    parts.push(mediaPart(block.media.kind, url));
  });
  return { parts, truncated: firstCut !== null || droppedMedia.length > 0, blocks, firstCut, droppedMedia };
}

function renderBlock(block: Block): RenderedBlock {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
      return { type: 'media', media: { kind: 'image', mimeType: block.mimeType, base64: block.data } };
    case 'audio':
      return { type: 'media', media: { kind: 'audio', mimeType: block.mimeType, base64: block.data } };
    case 'resource': {
      const resource = block.resource;
      if ('text' in resource && typeof resource.text === 'string')
        return { type: 'text', text: resource.text };
      const mimeType = resource.mimeType ?? 'application/octet-stream';
      const kind = mediaKindOf(mimeType);
      if (kind && 'blob' in resource && typeof resource.blob === 'string') {
        return { type: 'media', media: { kind, mimeType, base64: resource.blob } };
      }
      return unsupported(`embedded resource ${resource.uri} (${mimeType})`);
    }
    case 'resource_link': {
      const details = [block.mimeType, block.description].filter(Boolean).join('; ');
      return {
        type: 'text',
        text: `[Resource link: ${block.name} <${block.uri}>${details ? ` (${details})` : ''}]`,
      };
    }
    default:
      return unsupported(`content of type "${(block as { type: string }).type}"`);
  }
}

function unsupported(what: string): RenderedBlock {
  return { type: 'text', text: `[Unsupported content: ${what}]` };
}

function mediaKindOf(mimeType: string): MediaBlock['kind'] | null {
  if (mimeType.startsWith('image/')) return 'image';
  if (mimeType.startsWith('audio/')) return 'audio';
  if (mimeType.startsWith('video/')) return 'video';
  return null;
}

export function dataUrl(media: MediaBlock): string {
  return `data:${media.mimeType};base64,${media.base64}`;
}

function mediaPart(kind: MediaBlock['kind'], url: string): ContentPart {
  switch (kind) {
    case 'image':
      return { type: 'image_url', image_url: { url } };
    case 'audio':
      return { type: 'audio_url', audio_url: { url } };
    case 'video':
      return { type: 'video_url', video_url: { url } };
  }
}
