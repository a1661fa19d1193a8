import { existsSync } from 'node:fs';
import type { AgentSession } from '../app/agent-session.js';
import { SessionCatalog } from '../app/session-catalog.js';
import { isValidSessionId, sessionAt } from '../session/session.js';
import { resolveSessionId } from '../session/session-id-match.js';
import type { SessionControl } from '../ui/common/session-control.js';

/**
 * The sessions of a work dir, for the interactive front ends' own commands (`/new`, `/sessions`,
 * `/fork`, `/undo`, the TUI's pickers): the app's session catalog, and every session they open is
 * made by `openAgentSession`, like the first.
 */
export function sessionControl(
  home: string,
  workDir: string,
  openAgentSession: (which: { sessionId?: string }) => Promise<AgentSession>,
): SessionControl {
  const catalog = new SessionCatalog(home, { env: process.env });
  const at = (session: AgentSession) => sessionAt(home, workDir, session.sessionId);
  return {
    create: () => openAgentSession({}),
    resolve: (given) => resolveSessionId({ home, workDir }, given),
    open: async (id) =>
      isValidSessionId(id) && existsSync(sessionAt(home, workDir, id).contextFile)
        ? openAgentSession({ sessionId: id })
        : null,
    list: async () =>
      (await catalog.list(workDir)).map(({ session: s, title, updatedAt }) => ({
        id: s.id,
        title,
        updatedAt,
      })),
    fork: async (current) => {
      const fork = await catalog.fork(at(current));
      return openAgentSession({ sessionId: fork.id });
    },
    undoPoints: (current) => catalog.undoPoints(at(current)),
    undo: async (current, n) => {
      const source = at(current);
      const before = (await catalog.undoPoints(source)).find((point) => point.n === n);
      if (!before) throw new Error(`There is no turn ${n} to undo.`);
      const fork = await catalog.fork(source, before);
      return openAgentSession({ sessionId: fork.id });
    },
  };
}
