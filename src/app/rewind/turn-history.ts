import { assertNever } from '../../util/assert-never.js';
import type { CheckpointLogRecord, RewindRecord } from './checkpoint-log.js';

/** A turn `/rewind` can go back to before. */
export interface TurnEntry {
  turnId: number;
  prompt: string;
  contextCheckpoint: number;
  contextTextSha256: string;
  /** The files before the turn. */
  checkpoint: string;
  /** The files as the turn left them; null when the session ended before that was recorded. */
  endCheckpoint: string | null;
}

/** What a rewind set aside, for `--redo`. */
export interface Branch {
  rewind: RewindRecord;
  /** The turns the rewind took out of the list (none for a rewind of the files alone). */
  turns: TurnEntry[];
}

export interface TurnHistory {
  /** The turns of the current branch, oldest first: turn n of `/rewind n` is `turns[n - 1]`. */
  turns: TurnEntry[];
  /** The last rewind, while `--redo` can still return to it (no turn was taken since). */
  redoable: Branch | null;
  /** Gaps between turns (end of one, start of the next): changes there were not the session's. */
  gaps: Gap[];
  /** The files as the session last left them (end of the last turn, or after a rewind). */
  lastEnd: string | null;
}

export interface Gap {
  /** The turn that began after the gap. */
  beforeTurnId: number;
  from: string;
  to: string;
}

/** Replays the log: each rewind of the conversation cuts the list, each redo puts the cut back. */
export function replayTurnHistory(records: readonly CheckpointLogRecord[]): TurnHistory {
  const turns: TurnEntry[] = [];
  const byId = new Map<number, TurnEntry>();
  const branches: Branch[] = [];
  let redoable = false;
  const gaps: Gap[] = [];
  let lastEnd: string | null = null;
  for (const record of records) {
    switch (record.type) {
      case 'turn': {
        const entry: TurnEntry = {
          turnId: record.turn_id,
          prompt: record.prompt,
          contextCheckpoint: record.context_checkpoint,
          contextTextSha256: record.context_text_sha256,
          checkpoint: record.checkpoint,
          endCheckpoint: null,
        };
        turns.push(entry);
        byId.set(entry.turnId, entry);
        if (lastEnd && lastEnd !== record.checkpoint)
          gaps.push({ beforeTurnId: record.turn_id, from: lastEnd, to: record.checkpoint });
        lastEnd = null;
        redoable = false;
        break;
      }
      case 'step':
        break;
      case 'turn_end': {
        const entry = byId.get(record.turn_id);
        if (entry) entry.endCheckpoint = record.checkpoint;
        lastEnd = record.checkpoint;
        break;
      }
      case 'rewind': {
        const index = turns.findIndex((t) => t.turnId === record.to_turn_id);
        const removed = record.conversation && index >= 0 ? turns.splice(index) : [];
        branches.push({ rewind: record, turns: removed });
        redoable = true;
        // The files were set back by the session: what follows is measured from the state it left.
        lastEnd = record.after_checkpoint;
        break;
      }
      case 'redo': {
        const branch = branches.pop();
        if (branch) turns.push(...branch.turns);
        redoable = false;
        lastEnd = record.after_checkpoint;
        break;
      }
      default:
        assertNever(record, 'checkpoint log record');
    }
  }
  return { turns, redoable: redoable ? (branches.at(-1) ?? null) : null, gaps, lastEnd };
}
