import type { Content, FunctionDeclaration, Part } from '@google/genai';
import { parseDataUrl } from '../../data-url.js';
import { type ContentPart, extractText, type Message, type ToolCall } from '../../message.js';
import type { Tool } from '../../tool.js';

/** Where a tool call keeps the `thoughtSignature` Gemini attached to it (it must go back verbatim). */
export const THOUGHT_SIGNATURE = 'thought_signature';

/**
 * Converts kosong history into Gemini `contents`. Gemini has two roles, `user` and `model`: tool
 * results travel as `functionResponse` parts of a user turn (named after the call they answer),
 * system messages of the history as tagged user text, and consecutive turns of one role merge.
 * Thinking goes back only where it is signed; a call's thought signature goes back on its part.
 */
export function toGeminiContents(history: readonly Message[]): Content[] {
  const names = new Map<string, string>();
  const contents: Content[] = [];
  const push = (role: 'user' | 'model', parts: Part[]): void => {
    if (parts.length === 0) return;
    const last = contents.at(-1);
    if (last?.role === role) last.parts = [...(last.parts ?? []), ...parts];
    else contents.push({ role, parts });
  };
  for (const message of history) {
    switch (message.role) {
      case 'assistant': {
        for (const call of message.tool_calls ?? []) names.set(call.id, call.function.name);
        push('model', [
          ...message.content.flatMap(modelPart),
          ...(message.tool_calls ?? []).map(functionCallPart),
        ]);
        break;
      }
      case 'tool': {
        const id = message.tool_call_id ?? '';
        push('user', [
          {
            functionResponse: {
              id,
              name: names.get(id) ?? 'unknown_tool',
              response: { output: extractText(message, '\n') },
            },
          },
          ...message.content.flatMap((part) => (part.type === 'text' ? [] : userPart(part))),
        ]);
        break;
      }
      case 'system':
        push('user', [{ text: `<system>${extractText(message, '\n')}</system>` }]);
        break;
      default:
        push('user', message.content.flatMap(userPart));
    }
  }
  return contents;
}

export function toFunctionDeclaration(tool: Tool): FunctionDeclaration {
  return { name: tool.name, description: tool.description, parametersJsonSchema: tool.parameters };
}

function userPart(part: ContentPart): Part[] {
  switch (part.type) {
    case 'text':
      return part.text ? [{ text: part.text }] : [];
    case 'image_url':
      return mediaPart(part.image_url.url);
    case 'audio_url':
      return mediaPart(part.audio_url.url);
    case 'video_url':
      return mediaPart(part.video_url.url);
    default:
      return [];
  }
}

/** Inline data for a data URL; any other URL is handed over as a file URI. */
function mediaPart(url: string): Part[] {
  const inline = parseDataUrl(url);
  if (inline) return [{ inlineData: inline }];
  return [{ fileData: { fileUri: url } }];
}

function modelPart(part: ContentPart): Part[] {
  if (part.type === 'text') return part.text ? [{ text: part.text }] : [];
  if (part.type === 'think' && part.encrypted) {
    return [{ text: part.think, thought: true, thoughtSignature: part.encrypted }];
  }
  return [];
}

function functionCallPart(call: ToolCall): Part {
  let args: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(call.function.arguments || '{}');
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      args = parsed as Record<string, unknown>;
  } catch {
    // Arguments the model garbled stay garbled in the record; Gemini gets an empty object.
  }
  const signature = call.extras?.[THOUGHT_SIGNATURE];
  return {
    functionCall: { id: call.id, name: call.function.name, args },
    ...(typeof signature === 'string' ? { thoughtSignature: signature } : {}),
  };
}
