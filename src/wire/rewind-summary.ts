import type { RewindDone } from './events.js';

/** One line saying what a rewind did, for front ends that show the RewindDone event as text. */
export function rewindDoneSummary(payload: RewindDone): string {
  const what = payload.redo ? 'redone up to turn' : 'rewound to before turn';
  const parts: string[] = [];
  if (payload.code_rewound)
    parts.push(`${payload.restored.length} files restored, ${payload.removed.length} removed`);
  if (payload.kept.length) parts.push(`${payload.kept.length} kept`);
  if (payload.skipped.length) parts.push(`${payload.skipped.length} not restorable`);
  parts.push(payload.conversation_rewound ? 'conversation rewound' : 'conversation unchanged');
  return `${what} ${payload.turn}: ${parts.join(', ')}`;
}
