import { redactSecretContent } from '../policy/secret-content.js';
import { REDACTED, redactIn } from '../policy/secrets.js';

/**
 * A tool message with every credential the content table knows replaced by `[redacted]`, before it
 * reaches the history the model is sent; any other message as it is. A backstop behind the checks
 * before a read (secret files, git's object store): a command's output can still print a token
 * they did not see coming (made at run time, fetched). Not a fix alone: an encoded or reversed
 * token (`| rev`, `| base64`) passes it.
 */
export function redactToolOutput<T>(message: T): T {
  if (!isToolMessage(message)) return message;
  return redactIn(message, (text) => redactSecretContent(text, REDACTED)) as T;
}

/**
 * A notification for the model with the same credentials replaced: a background task's completion
 * carries the last lines of its output in a user message (notification-text.ts), tool output all the
 * same. Every notification is made by kimi-ts from what its tasks and tools produced, never typed by
 * the person, so redacting all of them takes nothing of theirs.
 */
export function redactNotification<T extends { readonly text: string }>(notification: T): T {
  const text = redactSecretContent(notification.text, REDACTED);
  return text === notification.text ? notification : { ...notification, text };
}

function isToolMessage(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { role?: unknown }).role === 'tool';
}
