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

function isToolMessage(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { role?: unknown }).role === 'tool';
}
