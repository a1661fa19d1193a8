import type { AgentSession } from '../../app/agent-session.js';

/** The sessions of the work dir, for the session commands of the interactive front ends (TUI, shell). */
export interface SessionControl {
  /** A new session. */
  create(): Promise<AgentSession>;
  /** The full id of the saved session `given` (a whole id or a unique prefix); throws a readable error otherwise. */
  resolve(given: string): Promise<string>;
  /** The saved session with this id; null when there is none. */
  open(id: string): Promise<AgentSession | null>;
  /** Saved sessions, most recent first. */
  list(): Promise<{ id: string; title: string; updatedAt: number }[]>;
  /** A new session that starts with a copy of `current`'s history. */
  fork(current: AgentSession): Promise<AgentSession>;
  /** The turns of `current` that `/undo` can go back to, numbered from 1. */
  undoPoints(current: AgentSession): Promise<{ n: number; text: string }[]>;
  /** A new session with `current`'s history before turn `n`. */
  undo(current: AgentSession, n: number): Promise<AgentSession>;
}
