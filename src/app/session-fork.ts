import { randomUUID } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { extractText } from '../kosong/message.js';
import { createSession, type Session } from '../session/session.js';
import { readSessionState, writeSessionState } from '../session/state.js';
import { parseContextLine } from '../soul/context/context-records.js';
import type { UserInput } from '../soul/steer-queue.js';

/** A turn `/undo` can go back to: before it, the session is as it was then. */
export interface UndoPoint {
  /** 1-based, among the turns listed. */
  n: number;
  /** What the user typed. */
  text: string;
  /** The turn's TurnBegin line in wire.jsonl, and its user message's line in context.jsonl. */
  wireLine: number;
  contextLine: number;
}

/**
 * The turns of a session that can be undone: each TurnBegin of wire.jsonl whose input is found,
 * in order, as a user message of context.jsonl. Turns that never reached the context (slash
 * commands) and turns compacted away since are not among them.
 */
export async function undoPoints(session: Session): Promise<UndoPoint[]> {
  const [wire, context] = await Promise.all([linesOf(session.wireFile), linesOf(session.contextFile)]);
  const userTexts = context.map((line) => {
    const parsed = parseContextLine(line);
    return parsed.ok && parsed.record.kind === 'message' && parsed.record.message.role === 'user'
      ? extractText(parsed.record.message, '')
      : null;
  });
  const points: UndoPoint[] = [];
  let cursor = 0;
  wire.forEach((line, wireLine) => {
    const text = turnBeginText(line);
    if (text === null) return;
    const contextLine = userTexts.indexOf(text, cursor);
    if (contextLine < 0) return;
    cursor = contextLine + 1;
    points.push({ n: points.length + 1, text, wireLine, contextLine });
  });
  return points;
}

/**
 * `/fork` (and `/undo`): a new session of the same work dir that starts where `source` is — or was,
 * just before the turn `before`: its history (context.jsonl), its wire record (so the shell shows
 * the conversation) and its state (approvals, todos, folders, plan mode), titled
 * "Fork: <title>". The two then go their own ways.
 */
export async function forkSession(
  source: Session,
  options: { home: string; before?: UndoPoint | undefined },
): Promise<Session> {
  const fork = await createSession({ home: options.home, workDir: source.workDir, id: randomUUID() });
  const [wire, context, state] = await Promise.all([
    linesOf(source.wireFile),
    linesOf(source.contextFile),
    readSessionState(source.stateFile),
  ]);
  const cut = (lines: string[], end: number | undefined) => {
    const kept = end === undefined ? lines : lines.slice(0, end);
    return kept.length > 0 ? `${kept.join('\n')}\n` : '';
  };
  await Promise.all([
    writeFile(fork.contextFile, cut(context, options.before?.contextLine)),
    writeFile(fork.wireFile, cut(wire, options.before?.wireLine)),
  ]);
  await writeSessionState(fork.stateFile, {
    ...state,
    custom_title: `Fork: ${state.custom_title ?? 'Untitled'}`,
    title_generated: false,
  });
  return fork;
}

/** The complete lines of a JSONL file (a torn last line left out); none when it is missing. */
async function linesOf(path: string): Promise<string[]> {
  const text = await readFile(path, 'utf8').catch(() => '');
  return text.split('\n').slice(0, -1);
}

function turnBeginText(line: string): string | null {
  try {
    const record = JSON.parse(line) as { message?: { type?: unknown; payload?: { user_input?: UserInput } } };
    if (record.message?.type !== 'TurnBegin') return null;
    const input = record.message.payload?.user_input;
    if (input === undefined) return null;
    return typeof input === 'string' ? input : extractText({ content: input }, '');
  } catch {
    return null;
  }
}
