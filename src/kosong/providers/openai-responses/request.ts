import type {
  FunctionTool,
  ResponseCreateParamsStreaming,
  ResponseInput,
} from 'openai/resources/responses/responses';
import { type ContentPart, extractText, type Message, type ThinkingEffort } from '../../message.js';
import type { Tool } from '../../tool.js';

/**
 * The input items this provider sends. The SDK's own types demand an `id` on assistant output
 * messages and reasoning items; with `store: false` there is no stored item to point at, and the
 * API accepts both without one (a reasoning item is identified by its `encrypted_content`).
 */
type InputContent =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string; detail: 'auto' };

type InputItem =
  | { type: 'message'; role: 'user' | 'system'; content: InputContent[] }
  | { type: 'message'; role: 'assistant'; content: { type: 'output_text'; text: string; annotations: [] }[] }
  | { type: 'reasoning'; summary: { type: 'summary_text'; text: string }[]; encrypted_content: string }
  | { type: 'function_call'; call_id: string; name: string; arguments: string }
  | { type: 'function_call_output'; call_id: string; output: string | InputContent[] };

export interface ResponsesRequestSettings {
  model: string;
  thinkingEffort: ThinkingEffort | null;
  maxTokens?: number | undefined;
  temperature?: number | undefined;
  topP?: number | undefined;
  sessionId?: string | undefined;
}

/** Builds the streaming `responses.create` body for one generate call. */
export function buildResponsesRequest(
  settings: ResponsesRequestSettings,
  systemPrompt: string,
  tools: readonly Tool[],
  history: readonly Message[],
): ResponseCreateParamsStreaming {
  const body: ResponseCreateParamsStreaming = {
    model: settings.model,
    input: historyToInput(history),
    stream: true,
    store: false,
  };
  if (systemPrompt) body.instructions = systemPrompt;
  if (tools.length > 0) body.tools = tools.map(toFunctionTool);
  const effort = settings.thinkingEffort;
  if (effort && effort !== 'off') {
    body.reasoning = { effort, summary: 'auto' };
    // Without stored state the only way to hand reasoning back on the next call is encrypted.
    body.include = ['reasoning.encrypted_content'];
  }
  if (settings.maxTokens !== undefined) body.max_output_tokens = settings.maxTokens;
  if (settings.temperature !== undefined) body.temperature = settings.temperature;
  if (settings.topP !== undefined) body.top_p = settings.topP;
  if (settings.sessionId) body.prompt_cache_key = settings.sessionId;
  return body;
}

export function toFunctionTool(tool: Tool): FunctionTool {
  return {
    type: 'function',
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    strict: false,
  };
}

export function historyToInput(history: readonly Message[]): ResponseInput {
  const items: InputItem[] = [];
  for (const message of history) items.push(...messageToItems(message));
  return items as unknown as ResponseInput;
}

function messageToItems(message: Message): InputItem[] {
  switch (message.role) {
    case 'system':
    case 'user': {
      const content = toInputContent(message.content);
      return content.length > 0 ? [{ type: 'message', role: message.role, content }] : [];
    }
    case 'assistant':
      return assistantToItems(message);
    case 'tool':
      return [
        { type: 'function_call_output', call_id: message.tool_call_id ?? '', output: toolOutput(message) },
      ];
  }
}

/**
 * An assistant message becomes its items in stream order: reasoning, then text, then calls.
 * Consecutive text parts share one output message; unsigned thinking cannot be handed back.
 */
function assistantToItems(message: Message): InputItem[] {
  const items: InputItem[] = [];
  let texts: { type: 'output_text'; text: string; annotations: [] }[] = [];
  const flushText = (): void => {
    if (texts.length > 0) items.push({ type: 'message', role: 'assistant', content: texts });
    texts = [];
  };
  for (const part of message.content) {
    if (part.type === 'text') {
      if (part.text) texts.push({ type: 'output_text', text: part.text, annotations: [] });
    } else if (part.type === 'think' && part.encrypted) {
      flushText();
      items.push({
        type: 'reasoning',
        summary: part.think ? [{ type: 'summary_text', text: part.think }] : [],
        encrypted_content: part.encrypted,
      });
    }
  }
  flushText();
  for (const call of message.tool_calls ?? []) {
    items.push({
      type: 'function_call',
      call_id: call.id,
      name: call.function.name,
      arguments: call.function.arguments || '{}',
    });
  }
  return items;
}

/** Text and images; audio and video have no Responses input equivalent here and are left out. */
function toInputContent(parts: readonly ContentPart[]): InputContent[] {
  const out: InputContent[] = [];
  for (const part of parts) {
    if (part.type === 'text') out.push({ type: 'input_text', text: part.text });
    else if (part.type === 'image_url')
      out.push({ type: 'input_image', image_url: part.image_url.url, detail: 'auto' });
  }
  return out;
}

/** The text of a tool result, or a list of text and images when the tool returned images. */
function toolOutput(message: Message): string | InputContent[] {
  if (!message.content.some((part) => part.type === 'image_url')) return extractText(message);
  return toInputContent(message.content);
}
