/** What `/rewind` was asked to do. */
export type RewindArgs =
  | { kind: 'rewind'; turn: number | null; code: boolean; conversation: boolean; force: boolean }
  | { kind: 'redo'; force: boolean }
  | { kind: 'list' }
  | { kind: 'usage'; problem: string };

export const REWIND_USAGE =
  'Usage: /rewind [n] [--code | --conversation | --both] [--force] · /rewind --redo · /rewind list';

/** Parses the words after `/rewind`. */
export function parseRewindArgs(text: string): RewindArgs {
  const words = text.trim().split(/\s+/).filter(Boolean);
  let turn: number | null = null;
  let scope: 'code' | 'conversation' | 'both' | null = null;
  let force = false;
  let redo = false;
  for (const word of words) {
    if (word === 'list' && words.length === 1) return { kind: 'list' };
    if (word === '--force') force = true;
    else if (word === '--redo') redo = true;
    else if (word === '--code' || word === '--conversation' || word === '--both') {
      const next = word.slice(2) as 'code' | 'conversation' | 'both';
      if (scope !== null && scope !== next)
        return { kind: 'usage', problem: 'Choose one of --code, --conversation and --both.' };
      scope = next;
    } else if (/^\d{1,9}$/.test(word) && turn === null) {
      turn = Number(word);
      if (turn < 1) return { kind: 'usage', problem: 'Turns are numbered from 1.' };
    } else return { kind: 'usage', problem: `Unknown argument: ${word.slice(0, 40)}` };
  }
  if (redo) {
    if (turn !== null || scope !== null)
      return { kind: 'usage', problem: '--redo takes no turn and no --code/--conversation.' };
    return { kind: 'redo', force };
  }
  const which = scope ?? 'both';
  return {
    kind: 'rewind',
    turn,
    code: which !== 'conversation',
    conversation: which !== 'code',
    force,
  };
}
