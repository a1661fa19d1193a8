import { randomUUID } from 'node:crypto';
import { copyFile } from 'node:fs/promises';
import { createSession, type Session } from '../session/session.js';
import { readSessionState, writeSessionState } from '../session/state.js';

/**
 * `/fork`: a new session of the same work dir that starts where `source` is: its history
 * (context.jsonl), its wire record (so the shell shows the conversation) and its state (approvals,
 * todos, folders, plan mode), titled "Fork: <title>". The two then go their own ways.
 */
export async function forkSession(source: Session, options: { home: string }): Promise<Session> {
  const fork = await createSession({ home: options.home, workDir: source.workDir, id: randomUUID() });
  await Promise.all([
    copyFile(source.contextFile, fork.contextFile),
    copyFile(source.wireFile, fork.wireFile).catch((error: NodeJS.ErrnoException) => {
      // A session that never ran a turn has no wire file yet.
      if (error.code !== 'ENOENT') throw error;
    }),
  ]);
  const state = await readSessionState(source.stateFile);
  await writeSessionState(fork.stateFile, {
    ...state,
    custom_title: `Fork: ${state.custom_title ?? 'Untitled'}`,
    title_generated: false,
  });
  return fork;
}
