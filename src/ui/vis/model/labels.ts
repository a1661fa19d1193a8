import { userInputSchema } from '../../../wire/payloads.js';
import { userInputText } from '../../../wire/user-input-text.js';

/** Short, single-line labels for bars and markers, from untrusted model and tool text. */

const MAX_LABEL = 80;

export function shorten(text: string, max = MAX_LABEL): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** The user's input of a TurnBegin read from the file: its text, or nothing when it is not one. */
export function inputTextOf(input: unknown): string {
  const parsed = userInputSchema.safeParse(input);
  return parsed.success ? userInputText(parsed.data) : '';
}

/** The argument that says most about a call (Kimi CLI's `extract_key_argument`, roughly). */
const KEY_ARGUMENTS = ['command', 'path', 'pattern', 'query', 'url', 'description', 'thought', 'task_id'];

export function toolLabel(name: string, argumentsJson: unknown): string {
  if (typeof argumentsJson !== 'string' || argumentsJson === '') return name;
  let args: unknown;
  try {
    args = JSON.parse(argumentsJson);
  } catch {
    return name;
  }
  if (!isRecord(args)) return name;
  for (const key of KEY_ARGUMENTS) {
    const value = args[key];
    if (typeof value === 'string' && value !== '') return shorten(`${name} ${value}`);
  }
  return name;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A finite number, or 0. */
export function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** What a `/rewind` did, in a marker's words. */
export function rewindLabel(p: Record<string, unknown>): string {
  const what = [p.code_rewound === true && 'files', p.conversation_rewound === true && 'conversation']
    .filter(Boolean)
    .join(' and ');
  const verb = p.redo === true ? 'redone' : 'rewound';
  return `/rewind: ${what || 'nothing'} ${verb} to before turn ${String(p.turn ?? '?')}`;
}
