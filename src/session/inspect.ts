import { userInputSchema } from '../wire/payloads.js';
import { userInputText } from '../wire/user-input-text.js';
import { scanJsonLines, tryParseJson } from './jsonl-scan.js';
import type { Session } from './session.js';
import { readSessionState } from './state.js';
import { shortenTitle, UNTITLED } from './title.js';

/**
 * Questions about a session answered from its files without loading its history: each reads only
 * as far as it needs.
 */

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True when `wire.jsonl` holds a message beyond its header, i.e. opening the session resumes it. */
export async function hasWireRecords(session: Session): Promise<boolean> {
  const found = await scanJsonLines(session.wireFile, (line) => {
    const record = tryParseJson(line);
    return isObject(record) && record.type === 'metadata' ? undefined : true;
  });
  return found === true;
}

/** True when `context.jsonl` holds a message (not only a system prompt, checkpoints or usage). */
export async function hasContextMessages(session: Session): Promise<boolean> {
  const found = await scanJsonLines(session.contextFile, (line) => {
    const record = tryParseJson(line);
    return isObject(record) && typeof record.role === 'string' && !record.role.startsWith('_')
      ? true
      : undefined;
  });
  return found === true;
}

/** Empty: no messages in context, no wire records and no custom title. Such sessions are not kept. */
export async function isSessionEmpty(session: Session): Promise<boolean> {
  const state = await readSessionState(session.stateFile);
  if (state.custom_title) return false;
  if (await hasWireRecords(session)) return false;
  return !(await hasContextMessages(session));
}

/** The text of the first `TurnBegin` in `wire.jsonl`, if any. */
export async function firstTurnText(session: Session): Promise<string | undefined> {
  return scanJsonLines(session.wireFile, (line) => {
    const record = tryParseJson(line);
    const message = isObject(record) ? record.message : undefined;
    if (!isObject(message) || message.type !== 'TurnBegin' || !isObject(message.payload)) return undefined;
    return inputTextOf(message.payload.user_input);
  });
}

/** The text of a TurnBegin's user input read from the file: nothing when it is not a user input. */
function inputTextOf(input: unknown): string {
  const parsed = userInputSchema().safeParse(input);
  return parsed.success ? userInputText(parsed.data) : '';
}

/** The custom title, else the first user input shortened to 50 characters, else "Untitled". */
export async function sessionTitle(session: Session): Promise<string> {
  const state = await readSessionState(session.stateFile);
  if (state.custom_title?.trim()) return state.custom_title.trim();
  const text = (await firstTurnText(session))?.trim();
  return text ? shortenTitle(text) : UNTITLED;
}
