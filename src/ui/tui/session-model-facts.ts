import type { AgentSession } from '../../app/agent-session.js';
import { sanitizeForTerminal } from './sanitize-for-terminal.js';
import type { ModelPrice } from './status-line.js';

/** What the status line says about the session's model, read from the session each time. */

/** The current model's context window in tokens (null: unknown, e.g. a model from environment variables). */
export function currentContextSize(session: AgentSession): number | null {
  try {
    return session.models().find((m) => m.current)?.maxContextSize ?? null;
  } catch {
    return null;
  }
}

/** The current model's prices (`[models.x] price` in the config), null when it has none. */
export function priceOf(
  session: AgentSession,
  prices: Readonly<Record<string, ModelPrice | undefined>> | undefined,
): ModelPrice | null {
  const alias = currentAlias(session);
  return (alias && prices?.[alias]) || null;
}

/**
 * The status line's model: its alias (else the API's model name, when environment variables alone
 * define it), and `thinking` while the model thinks (Kimi CLI's 💫 prompt).
 */
export function currentModel(session: AgentSession): string | null {
  const found = currentAlias(session) ?? session.modelName;
  const name = found === null ? null : sanitizeForTerminal(found);
  return name !== null && session.thinking ? `${name} · thinking` : name;
}

function currentAlias(session: AgentSession): string | null {
  try {
    return session.models().find((m) => m.current)?.alias ?? null;
  } catch {
    return null;
  }
}
