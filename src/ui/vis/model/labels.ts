import { extractKeyArgument } from '../../../wire/key-argument.js';
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

/** A call's name and its key argument (the one every front end shows), as one label. */
export function toolLabel(name: string, argumentsJson: unknown): string {
  const key = typeof argumentsJson === 'string' ? extractKeyArgument(name, argumentsJson, '') : null;
  return key ? shorten(`${name} ${key}`) : name;
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
