import type { ContentPart, Message, ToolResult } from '../kosong/index.js';
import { isToolRuntimeError } from './tool-errors.js';

/** `<system>text</system>`: text for the model that comes from the system, not the tool. */
export function systemText(text: string): string {
  return `<system>${text}</system>`;
}

/** `<system-reminder>` block, on its own lines. */
export function systemReminder(text: string): string {
  return `<system-reminder>\n${text}\n</system-reminder>`;
}

const RUNTIME_ERROR_HINT = '\nThis failure was not expected; the tool is probably broken.';

/**
 * The `tool` message the model reads for a result. Errors start with `<system>ERROR: message</system>`;
 * successes with `<system>message</system>` when there is a message; then the output. A result with
 * nothing in it says so, and one without any text (an image alone) says it returned non-text content.
 */
export function toolResultToMessage(result: ToolResult): Message {
  const value = result.return_value;
  const output: ContentPart[] =
    typeof value.output === 'string'
      ? value.output
        ? [{ type: 'text', text: value.output }]
        : []
      : [...value.output];
  const content: ContentPart[] = [];
  if (value.is_error) {
    const hint = isToolRuntimeError(value) ? RUNTIME_ERROR_HINT : '';
    content.push({ type: 'text', text: systemText(`ERROR: ${value.message}${hint}`) }, ...output);
  } else {
    if (value.message) content.push({ type: 'text', text: systemText(value.message) });
    content.push(...output);
    if (content.length === 0) content.push({ type: 'text', text: systemText('Tool output is empty.') });
    else if (!content.some((part) => part.type === 'text')) {
      content.unshift({ type: 'text', text: systemText('Tool returned non-text content.') });
    }
  }
  return { role: 'tool', content, tool_call_id: result.tool_call_id };
}
