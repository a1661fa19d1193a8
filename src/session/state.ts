import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { writeFileAtomic } from '../util/atomic-file.js';

/**
 * `state.json`: what a session remembers besides its history (approval flags, plan mode, todos,
 * title), in Kimi CLI's field names. Reading is forgiving: a field of the wrong type takes its
 * default, malformed todos are dropped, and unknown fields are kept so writing a state back does
 * not erase what a newer program stored.
 */

export const TODO_STATUSES = ['pending', 'in_progress', 'done'] as const;
export type TodoStatus = (typeof TODO_STATUSES)[number];

const todoSchema = z.object({ title: z.string().min(1), status: z.enum(TODO_STATUSES) });
export type TodoItem = z.output<typeof todoSchema>;

/** A field that takes (a fresh copy of) `fallback` when absent or malformed. */
function field<T extends z.ZodType>(schema: T, fallback: z.output<T>) {
  return schema
    .optional()
    .catch(undefined)
    .transform((value): z.output<T> => (value === undefined ? structuredClone(fallback) : value));
}

const todosSchema = z.preprocess(
  (value) => (Array.isArray(value) ? value.filter((item) => todoSchema.safeParse(item).success) : []),
  z.array(todoSchema),
);

const approvalSchema = z.looseObject({
  yolo: field(z.boolean(), false),
  afk: field(z.boolean(), false),
  /** Actions the user approved "for this session". */
  auto_approve_actions: field(z.array(z.string()), []),
});

export const sessionStateSchema = z.looseObject({
  version: field(z.number().int(), 1),
  approval: approvalSchema.catch(() => approvalSchema.parse({})).prefault({}),
  additional_dirs: field(z.array(z.string()), []),
  custom_title: field(z.string().nullable(), null),
  title_generated: field(z.boolean(), false),
  title_generate_attempts: field(z.number().int().min(0), 0),
  plan_mode: field(z.boolean(), false),
  plan_session_id: field(z.string().nullable(), null),
  plan_slug: field(z.string().nullable(), null),
  wire_mtime: field(z.number().nullable(), null),
  archived: field(z.boolean(), false),
  archived_at: field(z.number().nullable(), null),
  auto_archive_exempt: field(z.boolean(), false),
  todos: todosSchema,
});

export type SessionState = z.output<typeof sessionStateSchema>;

export function defaultSessionState(): SessionState {
  return sessionStateSchema.parse({}, { jitless: true });
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
  const parsed = sessionStateSchema.safeParse(raw, { jitless: true });
  return parsed.success ? parsed.data : defaultSessionState();
}

/** Writes `state.json` atomically (temp file + rename). */
export async function writeSessionState(path: string, state: SessionState): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(state, null, 2)}\n`);
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
