import { existsSync } from 'node:fs';
import type { AgentSession } from '../app/agent-session.js';
import { forkSession, undoPoints } from '../app/session-fork.js';
import { listSessions } from '../session/list.js';
import { isValidSessionId, sessionAt } from '../session/session.js';
import { resolveSessionId } from '../session/session-id-match.js';
import type { ShellSessionControl } from '../ui/shell/run-shell.js';

/**
 * The sessions of a work dir, for the interactive front ends' own commands (`/new`, `/sessions`,
 * `/fork`, `/undo`): every session they open is made by `openAgentSession`, like the first.
 */
export function sessionControl(
  home: string,
  workDir: string,
  openAgentSession: (which: { sessionId?: string }) => Promise<AgentSession>,
): ShellSessionControl {
  return {
    create: () => openAgentSession({}),
    resolve: (given) => resolveSessionId({ home, workDir }, given),
    open: async (id) =>
      isValidSessionId(id) && existsSync(sessionAt(home, workDir, id).contextFile)
        ? openAgentSession({ sessionId: id })
        : null,
    list: async () =>
      (await listSessions({ home, workDir })).map(({ session: s, title, updatedAt }) => ({
        id: s.id,
        title,
        updatedAt,
      })),
    fork: async (current) => {
      const fork = await forkSession(sessionAt(home, workDir, current.sessionId), { home });
      return openAgentSession({ sessionId: fork.id });
    },
    undoPoints: (current) => undoPoints(sessionAt(home, workDir, current.sessionId)),
    undo: async (current, n) => {
      const source = sessionAt(home, workDir, current.sessionId);
      const before = (await undoPoints(source)).find((point) => point.n === n);
      if (!before) throw new Error(`There is no turn ${n} to undo.`);
      const fork = await forkSession(source, { home, before });
      return openAgentSession({ sessionId: fork.id });
    },
  };
}
