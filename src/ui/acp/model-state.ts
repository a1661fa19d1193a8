import type { AgentSession } from '../../app/agent-session.js';
import { assertNever } from '../../util/assert-never.js';

/** One model an editor can pick, as Kimi CLI lists them. */
export interface AcpModelInfo {
  modelId: string;
  name: string;
}

/** `models` of Kimi CLI's `session/new` and `session/resume` answers (ACP's model state). */
export interface AcpModelState {
  currentModelId: string;
  availableModels: AcpModelInfo[];
}

/** `{ models }` for an answer, or nothing when the session runs no model of the config. */
export function acpModels(session: AgentSession): { models?: AcpModelState } {
  const models = acpModelState(session);
  return models ? { models } : {};
}

/** Kimi CLI's id of a model with thinking on: the alias and `,thinking`. */
const THINKING_SUFFIX = ',thinking';

/**
 * The config's models as Kimi CLI expands them: an always-thinking model once (`alias,thinking`),
 * an optionally thinking one twice (`alias`, and `alias,thinking` named "… (thinking)"), any other
 * once. Null when the session runs no model of the config (one set up by environment variables).
 */
export function acpModelState(session: AgentSession): AcpModelState | null {
  const models = session.models();
  const current = models.find((m) => m.current);
  if (!current) return null;
  const availableModels = models.flatMap((m): AcpModelInfo[] => {
    switch (m.thinking) {
      case 'always':
        return [{ modelId: `${m.alias}${THINKING_SUFFIX}`, name: m.model }];
      case 'optional':
        return [
          { modelId: m.alias, name: m.model },
          { modelId: `${m.alias}${THINKING_SUFFIX}`, name: `${m.model} (thinking)` },
        ];
      case 'none':
        return [{ modelId: m.alias, name: m.model }];
      default:
        return assertNever(m.thinking);
    }
  });
  const thinkingOn = current.thinking === 'always' || (current.thinking === 'optional' && session.thinking);
  return {
    currentModelId: thinkingOn ? `${current.alias}${THINKING_SUFFIX}` : current.alias,
    availableModels,
  };
}
