import type * as acp from '@agentclientprotocol/sdk';
import type { AgentSession } from '../../app/agent-session.js';
import { modeIdOf, SESSION_MODES } from './session-updates.js';

/** The id of the model setting an editor can change. */
export const MODEL_OPTION = 'model';

/**
 * The session's settings an editor can change: the model, among the config's `[models.*]` (offered
 * when the session runs one of them, not a model set up by environment variables alone).
 */
export function configOptionsOf(session: AgentSession): acp.SessionConfigOption[] {
  const models = session.models();
  const current = models.find((m) => m.current);
  if (!current) return [];
  return [
    {
      id: MODEL_OPTION,
      name: 'Model',
      category: 'model',
      type: 'select',
      currentValue: current.alias,
      options: models.map((m) => ({
        value: m.alias,
        name: m.alias,
        description: `${m.model} (${m.provider})`,
      })),
    },
  ];
}

export function modesOf(session: AgentSession): acp.SessionModeState {
  return { currentModeId: modeIdOf(session.planMode), availableModes: SESSION_MODES };
}
