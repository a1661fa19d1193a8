import { readFileSync } from 'node:fs';
import type { Message } from '../kosong/message.js';
import { extractText } from '../kosong/message.js';

/** Messages kept verbatim after compaction: from the 2nd-to-last user/assistant message on. */
export const MAX_PRESERVED_MESSAGES = 2;

export const COMPACTION_SYSTEM_PROMPT =
  'You are a careful assistant that condenses a conversation into a compact working record.';

let compactPrompt: string | undefined;
/** The instructions appended to the conversation being compacted (`prompts/compact.md`). */
export function compactionPrompt(): string {
  compactPrompt ??= readFileSync(new URL('./prompts/compact.md', import.meta.url), 'utf8');
  return compactPrompt;
}

/**
 * Seed 002 §4.3 phase 2c: compact before calling the model when the context has reached the trigger
 * ratio of the window, or when it leaves less than the reserved headroom.
 *
 * Unlike Kimi CLI, a reserve larger than half the window is not applied: with the default 50,000
 * tokens and a small model (a local 32k one, say) it could never be met, so every step of every turn
 * would compact a context that is already small. Such windows compact by the ratio alone.
 */
export function shouldAutoCompact(
  tokens: number,
  maxContextSize: number,
  triggerRatio: number,
  reserved: number,
): boolean {
  if (maxContextSize <= 0) return false;
  if (tokens >= maxContextSize * triggerRatio) return true;
  return reserved <= maxContextSize / 2 && tokens + reserved >= maxContextSize;
}

export interface CompactionPlan {
  /** Older messages to summarise; empty when there is nothing worth compacting. */
  toCompact: Message[];
  /** The tail kept as is. */
  preserved: Message[];
}

/** Splits the history: keep the tail from the 2nd-to-last user/assistant message, summarise the rest. */
export function planCompaction(
  history: readonly Message[],
  maxPreserved = MAX_PRESERVED_MESSAGES,
): CompactionPlan {
  let seen = 0;
  let cut = -1;
  for (let i = history.length - 1; i >= 0; i--) {
    const role = history[i]!.role;
    if (role === 'user' || role === 'assistant') {
      seen++;
      if (seen === maxPreserved) {
        cut = i;
        break;
      }
    }
  }
  if (cut <= 0) return { toCompact: [], preserved: [...history] };
  return { toCompact: history.slice(0, cut), preserved: history.slice(cut) };
}

/** The single user message that asks the model to compact `messages`. */
export function compactionRequest(messages: readonly Message[], customInstruction = ''): Message {
  let body = '';
  messages.forEach((msg, i) => {
    body += `## Message ${i + 1}\nRole: ${msg.role}\nContent:\n${extractText(msg, '\n')}\n\n`;
  });
  body += compactionPrompt();
  if (customInstruction.trim())
    body += `\n\nUser's custom compaction instruction:\n${customInstruction.trim()}`;
  return { role: 'user', content: [{ type: 'text', text: body }] };
}
