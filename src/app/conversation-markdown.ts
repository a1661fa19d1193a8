import type { ContentPart, Message } from '../kosong/message.js';

/** What heads an exported conversation. */
export interface ConversationHeader {
  title: string;
  sessionId: string;
  workDir: string;
  exportedAt: Date;
}

/**
 * A conversation as Markdown for people: the user's and the assistant's words, each tool call with
 * its arguments and what it returned. The system prompt, thinking and checkpoint marks are left out;
 * images, audio and video appear as a note of their kind.
 */
export function conversationMarkdown(history: readonly Message[], header: ConversationHeader): string {
  const out = [
    `# ${header.title}`,
    '',
    `Session ${header.sessionId} in ${header.workDir}, exported ${header.exportedAt.toISOString()}.`,
  ];
  for (const message of history) {
    const text = partsText(message.content);
    if (message.role === 'user') {
      if (isCheckpointMark(text)) continue;
      out.push('', '## User', '', text);
    } else if (message.role === 'assistant') {
      out.push('', '## Assistant');
      if (text) out.push('', text);
      for (const call of message.tool_calls ?? []) {
        out.push(
          '',
          `**Tool call** \`${call.function.name}\``,
          '',
          fence(prettyJson(call.function.arguments), 'json'),
        );
      }
    } else if (message.role === 'tool') {
      out.push('', '**Tool result**', '', fence(text));
    } else if (message.role === 'system' && text) {
      out.push('', '## Note', '', text);
    }
  }
  return `${out.join('\n')}\n`;
}

const MEDIA_NOTES: Record<string, string> = {
  image_url: '[image]',
  audio_url: '[audio]',
  video_url: '[video]',
};

function partsText(parts: readonly ContentPart[]): string {
  return parts
    .map((part) => (part.type === 'text' ? part.text : (MEDIA_NOTES[part.type] ?? '')))
    .filter((text) => text !== '')
    .join('\n')
    .trim();
}

function isCheckpointMark(text: string): boolean {
  return /^<system>CHECKPOINT \d+<\/system>$/.test(text);
}

function prettyJson(text: string | null): string {
  if (!text) return '{}';
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** A fenced block long enough that backticks inside cannot close it. */
function fence(text: string, language = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const marks = '`'.repeat(longest + 1);
  return `${marks}${language}\n${text}\n${marks}`;
}
