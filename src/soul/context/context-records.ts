import { z } from 'zod';
import { type Message, messageFromJSON, messageToJSON } from '../../kosong/index.js';
import { builtOnFirstUse } from '../../util/built-on-first-use.js';

/**
 * The lines of `context.jsonl`, in Kimi CLI's format: one JSON object per line, either a message or
 * an internal record whose role starts with `_`.
 */

export type ContextRecord =
  | { kind: 'system_prompt'; content: string }
  | { kind: 'checkpoint'; id: number }
  | { kind: 'usage'; tokenCount: number }
  | { kind: 'message'; message: Message };

/** The internal records' schemas, built on first use: a new session reads no context.jsonl lines. */
const recordLines = builtOnFirstUse(() => ({
  systemPrompt: z.object({ role: z.literal('_system_prompt'), content: z.string() }),
  checkpoint: z.object({ role: z.literal('_checkpoint'), id: z.number().int().min(0) }),
  usage: z.object({ role: z.literal('_usage'), token_count: z.number().int().min(0) }),
}));

export function systemPromptToLine(content: string): string {
  return `${JSON.stringify({ role: '_system_prompt', content })}\n`;
}

export function checkpointToLine(id: number): string {
  return `${JSON.stringify({ role: '_checkpoint', id })}\n`;
}

export function usageToLine(tokenCount: number): string {
  return `${JSON.stringify({ role: '_usage', token_count: tokenCount })}\n`;
}

export function messageToLine(message: Message): string {
  return `${JSON.stringify(messageToJSON(message))}\n`;
}

/** The user message that follows a checkpoint when the agent can send D-Mail. */
export function checkpointUserMessage(id: number): Message {
  return { role: 'user', content: [{ type: 'text', text: `<system>CHECKPOINT ${id}</system>` }] };
}

export type ParsedLine = { ok: true; record: ContextRecord } | { ok: false; problem: string };

/** Parses one line (without its newline). Problems are described without quoting the line. */
export function parseContextLine(line: string): ParsedLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { ok: false, problem: 'not valid JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, problem: 'not a JSON object' };
  }
  const role = (value as { role?: unknown }).role;
  switch (role) {
    case '_system_prompt': {
      const parsed = recordLines().systemPrompt.safeParse(value);
      return parsed.success
        ? { ok: true, record: { kind: 'system_prompt', content: parsed.data.content } }
        : { ok: false, problem: 'malformed _system_prompt record' };
    }
    case '_checkpoint': {
      const parsed = recordLines().checkpoint.safeParse(value);
      return parsed.success
        ? { ok: true, record: { kind: 'checkpoint', id: parsed.data.id } }
        : { ok: false, problem: 'malformed _checkpoint record' };
    }
    case '_usage': {
      const parsed = recordLines().usage.safeParse(value);
      return parsed.success
        ? { ok: true, record: { kind: 'usage', tokenCount: parsed.data.token_count } }
        : { ok: false, problem: 'malformed _usage record' };
    }
    default:
      if (typeof role === 'string' && role.startsWith('_')) {
        return { ok: false, problem: `unknown record type ${JSON.stringify(role.slice(0, 40))}` };
      }
      try {
        return { ok: true, record: { kind: 'message', message: messageFromJSON(value) } };
      } catch (error) {
        return { ok: false, problem: (error as Error).message.split('\n', 1)[0] ?? 'invalid message' };
      }
  }
}
