import type { EventPayloads } from '../../../wire/events.js';
import { extractKeyArgument } from '../../../wire/key-argument.js';

/** Short, single-line labels for bars and markers, from untrusted model and tool text. */

const MAX_LABEL = 80;

export function shorten(text: string, max = MAX_LABEL): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** A call's name and its key argument (the one every front end shows), as one label. */
export function toolLabel(name: string, argumentsJson: unknown): string {
  const key = typeof argumentsJson === 'string' ? extractKeyArgument(name, argumentsJson, '') : null;
  return key ? shorten(`${name} ${key}`) : name;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What a `/rewind` did, in a marker's words. */
export function rewindLabel(p: EventPayloads['RewindDone']): string {
  const what = [p.code_rewound && 'files', p.conversation_rewound && 'conversation']
    .filter(Boolean)
    .join(' and ');
  const verb = p.redo ? 'redone' : 'rewound';
  return `/rewind: ${what || 'nothing'} ${verb} to before turn ${p.turn}`;
}
