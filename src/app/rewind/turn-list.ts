import { planRestore } from '../../session/checkpoints/restore-plan.js';
import { readCheckpointLog } from './checkpoint-log.js';
import type { SessionCheckpoints } from './session-checkpoints.js';
import { replayTurnHistory, type TurnHistory } from './turn-history.js';

/** What a turn changed in the files (all zero: nothing). */
export interface FileChangeCounts {
  created: number;
  modified: number;
  deleted: number;
}

/** A turn `/rewind n` can go back to before, as a picker shows it. */
export interface RewindTurn {
  /** `n` of `/rewind n` (from 1, oldest first). */
  n: number;
  /** The prompt of the turn as typed (untrusted text: a front end makes it safe to show). */
  prompt: string;
  /** What the turn changed in the files; null when that is not known (its end was not recorded). */
  changes: FileChangeCounts | null;
}

/** The turns of the session's current branch, and whether `/rewind --redo` can undo the last rewind. */
export interface RewindTurnList {
  turns: RewindTurn[];
  redoable: boolean;
}

/** The turns of a session, read from its checkpoint log. */
export async function readRewindTurns(
  checkpoints: SessionCheckpoints,
  sessionDir: string,
): Promise<RewindTurnList> {
  return listTurns(checkpoints, replayTurnHistory(await readCheckpointLog(sessionDir)));
}

/** The turns of `history` with what each changed in the files. */
export async function listTurns(
  checkpoints: SessionCheckpoints,
  history: TurnHistory,
): Promise<RewindTurnList> {
  if (history.turns.length === 0) return { turns: [], redoable: history.redoable !== null };
  const store = await checkpoints.currentStore();
  const turns: RewindTurn[] = [];
  for (const [index, turn] of history.turns.entries()) {
    const end = turn.endCheckpoint ?? history.turns[index + 1]?.checkpoint ?? null;
    let changes: FileChangeCounts | null = null;
    if (end && end !== turn.checkpoint) {
      // From the end back to the start: "remove" is a file the turn created, "restore" one it deleted.
      const planned = await planRestore(store.gitDir, end, turn.checkpoint).catch(() => []);
      const created = planned.filter((c) => c.kind === 'remove').length;
      const deleted = planned.filter((c) => c.kind === 'restore').length;
      changes = { created, modified: planned.length - created - deleted, deleted };
    } else if (end) changes = { created: 0, modified: 0, deleted: 0 };
    turns.push({ n: index + 1, prompt: turn.prompt, changes });
  }
  return { turns, redoable: history.redoable !== null };
}

/** `2 created, 1 modified, 0 deleted`, or `no file changes`; empty when not known. */
export function describeChanges(changes: FileChangeCounts | null): string {
  if (changes === null) return '';
  const { created, modified, deleted } = changes;
  if (created + modified + deleted === 0) return 'no file changes';
  return `${created} created, ${modified} modified, ${deleted} deleted`;
}

/** The numbered list of turns with their prompts and what each changed in the files (`/rewind list`). */
export async function describeTurns(checkpoints: SessionCheckpoints, history: TurnHistory): Promise<string> {
  const list = await listTurns(checkpoints, history);
  if (list.turns.length === 0) return 'There is no turn to rewind yet.';
  const lines = ['Turns (/rewind n goes back to before turn n):'];
  for (const turn of list.turns) {
    const prompt = turn.prompt.replace(/\s+/g, ' ').trim();
    const changed = describeChanges(turn.changes);
    lines.push(
      `  ${turn.n}. ${prompt.length > 70 ? `${prompt.slice(0, 67)}...` : prompt}${changed ? `  [${changed}]` : ''}`,
    );
  }
  if (list.redoable) lines.push('/rewind --redo returns to the state before the last rewind.');
  return lines.join('\n');
}
