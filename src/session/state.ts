import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../util/atomic-file.js';
import type { WriteFence } from '../util/write-fence.js';

/**
 * `state.json`: what a session remembers besides its history (approval flags, plan mode, todos,
 * title), in Kimi CLI's field names. Reading is forgiving: a field of the wrong type takes its
 * default, malformed todos are dropped, and unknown fields are kept so writing a state back does
 * not erase what a newer program stored.
 *
 * Checked by hand rather than with zod: every start reads this file, and building a forgiving zod
 * schema of this shape (a default and a catch per field) took longer than opening the session.
 */

export const TODO_STATUSES = ['pending', 'in_progress', 'done'] as const;
export type TodoStatus = (typeof TODO_STATUSES)[number];

export interface TodoItem {
  title: string;
  status: TodoStatus;
}

export interface ApprovalState {
  yolo: boolean;
  afk: boolean;
  /** Actions the user approved "for this session". */
  auto_approve_actions: string[];
  [unknownField: string]: unknown;
}

export interface SessionState {
  version: number;
  approval: ApprovalState;
  additional_dirs: string[];
  custom_title: string | null;
  title_generated: boolean;
  title_generate_attempts: number;
  plan_mode: boolean;
  plan_session_id: string | null;
  plan_slug: string | null;
  wire_mtime: number | null;
  archived: boolean;
  archived_at: number | null;
  auto_archive_exempt: boolean;
  todos: TodoItem[];
  /** The model alias `/model` switched this session to (kimi-ts only; null: the config's default). */
  model_alias: string | null;
  /** Thinking on or off as `/model` chose it (kimi-ts only; null: `--thinking` or the config decides). */
  model_thinking: boolean | null;
  [unknownField: string]: unknown;
}

type Field = readonly [accepts: (value: unknown) => boolean, fallback: () => unknown];

const isBoolean = (value: unknown) => typeof value === 'boolean';
const isString = (value: unknown) => typeof value === 'string';
const isNumber = (value: unknown) => typeof value === 'number' && Number.isFinite(value);
const isStringList = (value: unknown) => Array.isArray(value) && value.every(isString);
const orNull = (accepts: (value: unknown) => boolean) => (value: unknown) => value === null || accepts(value);

const BOOLEAN_FALSE: Field = [isBoolean, () => false];
const NULLABLE_STRING: Field = [orNull(isString), () => null];
const NULLABLE_NUMBER: Field = [orNull(isNumber), () => null];
const NULLABLE_BOOLEAN: Field = [orNull(isBoolean), () => null];
const STRING_LIST: Field = [isStringList, () => []];

const APPROVAL_FIELDS: Record<string, Field> = {
  yolo: BOOLEAN_FALSE,
  afk: BOOLEAN_FALSE,
  auto_approve_actions: STRING_LIST,
};

const STATE_FIELDS: Record<string, Field> = {
  version: [Number.isInteger, () => 1],
  approval: [isRecord, () => ({})],
  additional_dirs: STRING_LIST,
  custom_title: NULLABLE_STRING,
  title_generated: BOOLEAN_FALSE,
  title_generate_attempts: [(value) => Number.isInteger(value) && (value as number) >= 0, () => 0],
  plan_mode: BOOLEAN_FALSE,
  plan_session_id: NULLABLE_STRING,
  plan_slug: NULLABLE_STRING,
  wire_mtime: NULLABLE_NUMBER,
  archived: BOOLEAN_FALSE,
  archived_at: NULLABLE_NUMBER,
  auto_archive_exempt: BOOLEAN_FALSE,
  todos: [Array.isArray, () => []],
  model_alias: NULLABLE_STRING,
  model_thinking: NULLABLE_BOOLEAN,
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A copy of `raw` with every known field checked: kept when it fits, its default when not. */
function withFields(raw: Record<string, unknown>, fields: Record<string, Field>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...raw };
  for (const [name, [accepts, fallback]] of Object.entries(fields)) {
    // Values are copied so that no two states share a list (defaults included).
    out[name] = accepts(raw[name]) ? structuredClone(raw[name]) : fallback();
  }
  return out;
}

function isTodo(value: unknown): value is TodoItem {
  return (
    isRecord(value) &&
    typeof value.title === 'string' &&
    value.title.length > 0 &&
    (TODO_STATUSES as readonly unknown[]).includes(value.status)
  );
}

/** The state `raw` (parsed JSON) describes, forgiving as described above. */
export function normalizeSessionState(raw: unknown): SessionState {
  const state = withFields(isRecord(raw) ? raw : {}, STATE_FIELDS);
  state.approval = withFields(state.approval as Record<string, unknown>, APPROVAL_FIELDS);
  state.todos = (state.todos as unknown[]).filter(isTodo).map(({ title, status }) => ({ title, status }));
  return state as SessionState;
}

export function defaultSessionState(): SessionState {
  return normalizeSessionState({});
}

/** Reads `state.json`; a missing, unreadable-as-JSON or non-object file gives the defaults. */
export async function readSessionState(path: string): Promise<SessionState> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return defaultSessionState();
    throw error;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return defaultSessionState();
  }
  return normalizeSessionState(raw);
}

/**
 * Fences of state files, by path: a fleet worker's lease on its session (set while a turn runs), so
 * a worker that lost it writes no state.json either, and each state it does write is committed to
 * the session store first.
 */
const stateFences = new Map<string, WriteFence>();

/** Sets (or, with null, removes) the write fence of the state file at `path`. */
export function setStateFence(path: string, fence: WriteFence | null): void {
  if (fence === null) stateFences.delete(path);
  else stateFences.set(path, fence);
}

/** Writes `state.json` atomically (temp file + rename), after its fence (if any) let it through. */
export async function writeSessionState(path: string, state: SessionState): Promise<void> {
  const text = `${JSON.stringify(state, null, 2)}\n`;
  await stateFences.get(path)?.({ file: 'state', op: 'replace', text });
  await writeFileAtomic(path, text);
}

const updateQueues = new Map<string, Promise<unknown>>();

/**
 * Read-modify-write of `state.json`. Updates of the same file from this process run one after the
 * other, so two concurrent updates (say, a todo change and an approval) do not lose each other.
 */
export function updateSessionState(
  path: string,
  change: (state: SessionState) => SessionState | undefined,
): Promise<SessionState> {
  const previous = updateQueues.get(path) ?? Promise.resolve();
  const next = previous
    .catch(() => undefined)
    .then(async () => {
      const current = await readSessionState(path);
      const updated = change(current) ?? current;
      await writeSessionState(path, updated);
      return updated;
    });
  updateQueues.set(path, next);
  const cleanup = () => {
    if (updateQueues.get(path) === next) updateQueues.delete(path);
  };
  next.then(cleanup, cleanup);
  return next;
}
