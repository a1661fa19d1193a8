import type { Session } from '../session/session.js';
import { updateSessionState } from '../session/state.js';
import type { SessionStore, TodoItem } from '../tools/runtime.js';

/** The root agent's session store: todos live in state.json. */
export function createSessionStore(session: Session, initialTodos: readonly TodoItem[]): SessionStore {
  let todos = initialTodos.map((t) => ({ ...t }));
  return {
    sessionId: session.id,
    sessionDir: session.dir,
    getTodos: () => todos.map((t) => ({ ...t })),
    async setTodos(next) {
      todos = next.map((t) => ({ ...t }));
      await updateSessionState(session.stateFile, (s) => ({ ...s, todos: next.map((t) => ({ ...t })) }));
    },
  };
}
