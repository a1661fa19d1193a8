import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { builtOnFirstUse } from '../../util/built-on-first-use.js';

/**
 * `checkpoints.jsonl` in the session folder: which file checkpoint (a commit of the private store)
 * belongs to which turn and step, and every rewind and redo. Append-only, one JSON object per line,
 * each written by a single append, so a crash leaves whole lines and at worst a torn last one, which
 * reading skips. The turn list `/rewind` shows is a replay of this file (turn-history.ts).
 */

/**
 * The records' schemas, built on first use: a new session's log is read (it is missing) before the
 * first model request, and nothing parses or writes a record before the first turn's checkpoint.
 */
function buildRecordSchemas() {
  const commitId = z.string().regex(/^[0-9a-f]{40,64}$/);

  const turnRecord = z.object({
    type: z.literal('turn'),
    /** 1-based, unique in the session (also across branches). */
    turn_id: z.number().int().positive(),
    prompt: z.string(),
    /** The context checkpoint the turn starts at (`Context.revertTo` goes back to it). */
    context_checkpoint: z.number().int().nonnegative(),
    /** sha256 of the user message's text: proves the checkpoint still is this turn's (after a compaction it is not). */
    context_text_sha256: z.string(),
    /** The files before the turn. */
    checkpoint: commitId,
    at: z.number(),
  });
  const stepRecord = z.object({
    type: z.literal('step'),
    turn_id: z.number().int().positive(),
    step: z.number().int().positive(),
    checkpoint: commitId,
    at: z.number(),
  });
  const turnEndRecord = z.object({
    type: z.literal('turn_end'),
    turn_id: z.number().int().positive(),
    /** The files as the turn left them (what "changed by someone else" is measured from). */
    checkpoint: commitId,
    at: z.number(),
  });
  const rewindRecord = z.object({
    type: z.literal('rewind'),
    /** The turn gone back to before (it and every later turn become a branch). */
    to_turn_id: z.number().int().positive(),
    code: z.boolean(),
    conversation: z.boolean(),
    /** The files just before the rewind: what `--redo` restores. */
    before_checkpoint: commitId.nullable(),
    /** Where the conversation before the rewind was kept (a `context_N.jsonl` of the session). */
    context_branch: z.string().nullable(),
    /** The files right after the rewind (the state the session left them in). */
    after_checkpoint: commitId.nullable(),
    at: z.number(),
  });
  const redoRecord = z.object({
    type: z.literal('redo'),
    code: z.boolean(),
    conversation: z.boolean(),
    after_checkpoint: commitId.nullable(),
    at: z.number(),
  });

  const record = z.discriminatedUnion('type', [
    turnRecord,
    stepRecord,
    turnEndRecord,
    rewindRecord,
    redoRecord,
  ]);
  return { record, turnRecord, rewindRecord };
}

const recordSchemas = builtOnFirstUse(buildRecordSchemas);
type RecordSchemas = ReturnType<typeof buildRecordSchemas>;

export type CheckpointLogRecord = z.output<RecordSchemas['record']>;
export type TurnRecord = z.output<RecordSchemas['turnRecord']>;
export type RewindRecord = z.output<RecordSchemas['rewindRecord']>;

export const CHECKPOINT_LOG_NAME = 'checkpoints.jsonl';

export function checkpointLogPath(sessionDir: string): string {
  return join(sessionDir, CHECKPOINT_LOG_NAME);
}

/** The records of a session's log, oldest first; unreadable lines (a torn end) are skipped. */
export async function readCheckpointLog(sessionDir: string): Promise<CheckpointLogRecord[]> {
  let text: string;
  try {
    // Synchronous, as the appends below: a new session's is missing, an old one's a few kilobytes.
    text = readFileSync(checkpointLogPath(sessionDir), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const records: CheckpointLogRecord[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const parsed = recordSchemas().record.safeParse(JSON.parse(line));
      if (parsed.success) records.push(parsed.data);
    } catch {
      // A torn or foreign line: not a record.
    }
  }
  return records;
}

/**
 * Appends one record. A torn last line from a crash would swallow the next record's start, so the
 * line begins with a newline when the file does not end with one (`leadingNewline`). The record is
 * kimi-ts's own, typed: written as it is, not parsed again (building the schemas and parsing cost
 * ~2 ms of a 3-step session's checkpoints); reading checks every line. Synchronous: a line of a few
 * hundred bytes, where `fs/promises` made a file handle and three thread-pool round trips of it.
 */
export async function appendCheckpointLog(
  sessionDir: string,
  record: CheckpointLogRecord,
  leadingNewline = false,
): Promise<void> {
  const line = `${leadingNewline ? '\n' : ''}${JSON.stringify(record)}\n`;
  appendFileSync(checkpointLogPath(sessionDir), line, { mode: 0o600 });
}

/** Whether the log ends in the middle of a line (a crash during an append). */
export async function logEndsTorn(sessionDir: string): Promise<boolean> {
  try {
    const text = readFileSync(checkpointLogPath(sessionDir));
    return text.length > 0 && text[text.length - 1] !== 0x0a;
  } catch {
    return false;
  }
}
